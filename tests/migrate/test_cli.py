"""``altostratus migrate`` as a user meets it: the files it writes, the report it prints, and its
one-line failures, after which nothing is written."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from altostratus.cli import main
from altostratus.migrate import FRONT_ENDS

from .estates import placeholders, templated
from .hostile import declarations

FIXTURE = "terraform-show.json"


@pytest.fixture
def state(tmp_path: Path) -> Path:
    values = {key: f"<{key}>" for key in placeholders(FIXTURE)}
    path = tmp_path / "state.json"
    path.write_text(templated(FIXTURE, values), encoding="utf-8")
    return path


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


def test_it_writes_the_program_the_report_and_the_project_files(
    state: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "infra"
    assert main(["migrate", str(state), "--out", str(out), "--project", "shop"]) == 0
    assert sorted(p.name for p in out.iterdir()) == [
        "Pulumi.yaml",
        "__main__.py",
        "migration-report.md",
        "requirements.txt",
    ]
    printed = capsys.readouterr().out
    report = (out / "migration-report.md").read_text()
    assert printed.startswith(report)  # the report, printed as written
    assert f"Wrote {out / '__main__.py'}, {out / 'migration-report.md'}" in printed
    assert "main = alto.Network.adopt(" in (out / "__main__.py").read_text()
    assert (
        (out / "Pulumi.yaml")
        .read_text()
        .startswith(
            "name: shop\ndescription: Resources adopted from the Terraform state\nruntime:\n"
        )
    )
    assert (out / "requirements.txt").read_text().startswith("altostratus>=")


def test_the_plugin_front_end_writes_the_same_declarations_through_the_plugin(
    state: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["migrate", str(state), "--out", str(tmp_path / "dynamic")]) == 0
    dynamic = capsys.readouterr().out
    out = tmp_path / "plugin"
    assert main(["migrate", str(state), "--out", str(out), "--front-end", "plugin"]) == 0
    printed = capsys.readouterr().out
    program = (out / "__main__.py").read_text()
    assert "\nimport altostratus.plugin as alto\n" in program
    assert "\nimport altostratus as alto\n" not in program
    expected = declarations((tmp_path / "dynamic" / "__main__.py").read_text())
    assert declarations(program, "altostratus.plugin") == expected
    assert "Front end: the dynamic resources (`import altostratus as alto`)." in dynamic
    report = (out / "migration-report.md").read_text()
    assert printed.startswith(report)
    assert "Front end: the provider plugin (`import altostratus.plugin as alto`)." in report
    assert "`venv/bin/altostratus plugin install`" in report
    assert "plugin install" not in dynamic


def test_an_unknown_front_end_is_refused_writing_nothing(
    state: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "infra"
    with pytest.raises(SystemExit) as exit_:
        main(["migrate", str(state), "--out", str(out), "--front-end", "pulumi"])
    assert exit_.value.code == 1
    line = one_line(capsys.readouterr().err)
    assert "argument --front-end: invalid choice: 'pulumi'" in line
    assert all(front_end in line.split("choose from")[1] for front_end in FRONT_ENDS)
    assert not out.exists()


def test_a_folder_with_a_program_is_left_alone_unless_forced(
    state: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "infra"
    out.mkdir()
    (out / "__main__.py").write_text("# mine\n")
    (out / "Pulumi.yaml").write_text("name: mine\nruntime: python\n")
    assert main(["migrate", str(state), "--out", str(out)]) == 1
    assert "__main__.py exists: choose another folder, or pass --force" in one_line(
        capsys.readouterr().err
    )
    assert sorted(p.name for p in out.iterdir()) == ["Pulumi.yaml", "__main__.py"]
    assert (out / "__main__.py").read_text() == "# mine\n"

    assert main(["migrate", str(state), "--out", str(out), "--force"]) == 0
    assert "alto.Network.adopt(" in (out / "__main__.py").read_text()
    assert (out / "Pulumi.yaml").read_text() == "name: mine\nruntime: python\n"  # kept


def test_it_reads_the_state_from_standard_input(
    state: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(state.read_text()))
    monkeypatch.chdir(tmp_path)
    assert main(["migrate", "-"]) == 0
    assert (tmp_path / "__main__.py").is_file()
    assert (tmp_path / "Pulumi.yaml").read_text().startswith(f"name: {tmp_path.name}\n")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read {path}: No such file or directory"),
        ("{", "{path}: the source is not JSON"),
        ('{"format_version": "1.0", "values": {}}', "{path} holds no network, firewall"),
        (b"\xff\xfe", "cannot read {path}: it is not UTF-8 text"),
    ],
)
def test_a_source_that_cannot_be_migrated_fails_in_one_line_writing_nothing(
    content: str | bytes | None,
    message: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "state.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content)
    out = tmp_path / "infra"
    assert main(["migrate", str(path), "--out", str(out)]) == 1
    line = one_line(capsys.readouterr().err)
    assert line.startswith("altostratus: error: " + message.format(path=path))
    assert not out.exists()


def test_a_project_name_pulumi_would_refuse_is_refused(
    state: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["migrate", str(state), "--project", "my shop"])
    assert exit_.value.code == 1
    assert "'my shop' is not a project name" in one_line(capsys.readouterr().err)
