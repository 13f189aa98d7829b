"""``cli detect``, ``deploy`` / ``app deploy``, ``environments`` and the ``app`` commands against
the emulator, whose clock moves the application through its phases."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from altostratus.cli import main
from altostratus.emulator import Emulator
from tests.support.pseudo_terminal import Terminal

APPLICATIONS = {
    "python": {"requirements.txt": "flask\n", "app.py": "print('hi')\n"},
    "nodejs": {"package.json": '{"name": "@acme/shop-front"}', "index.js": ""},
    "go": {"go.mod": "module example.com/acme/api-server\n\ngo 1.22\n", "main.go": ""},
    "docker": {"Dockerfile": "FROM scratch\n", "package.json": "{}"},
}


def project(tmp_path: Path, runtime: str, name: str = "site") -> Path:
    folder = tmp_path / name
    folder.mkdir()
    for file, text in APPLICATIONS[runtime].items():
        (folder / file).write_text(text)
    return folder


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv), prog="cli")
    out, err = capsys.readouterr()
    return code, out, err


def payload(capsys: pytest.CaptureFixture[str], *argv: str) -> object:
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    return json.loads(out)


@pytest.mark.parametrize(
    ("runtime", "evidence", "name"),
    [
        ("python", "requirements.txt", "site"),
        ("nodejs", "package.json", "shop-front"),
        ("go", "go.mod", "api-server"),
        ("docker", "Dockerfile", "site"),
    ],
)
def test_detect_identifies_the_application_in_the_current_directory(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    runtime: str,
    evidence: str,
    name: str,
) -> None:
    monkeypatch.chdir(project(tmp_path, runtime))
    found = payload(capsys, "detect")
    assert found == {**found, "runtime": runtime, "evidence": evidence, "name": name}  # type: ignore[dict-item]


def test_detect_in_a_folder_without_an_application_names_what_to_add(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "detect")
    assert code == 1 and "no application in" in err and "Dockerfile" in err


def test_an_app_is_deployed_built_run_and_logged_on_the_emulators_clock(
    cli_env: Emulator,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(project(tmp_path, "python"))
    app = payload(capsys, "deploy", "--app_name", "site")
    assert (app["phase"], app["runtime"], app["builds"][0]["number"]) == ("building", "python", 1)  # type: ignore[index]
    assert app["url"] == "http://site.default.apps.localhost"  # type: ignore[index]
    code, out, _ = run(capsys, "app", "logs", "--app_name", "site", "--build", "--no-follow")
    assert code == 0 and out.splitlines()[0].endswith("build #1 started (deploy)")
    code, out, _ = run(
        capsys, "app", "logs", "--app_name", "site", "--build", "--no-follow", "--json"
    )
    first = json.loads(out.splitlines()[0])
    assert (first["stream"], first["message"]) == ("build", "build #1 started (deploy)")
    cli_env.advance_clock(21)
    status = payload(capsys, "app", "status", "--app_name", "site")
    assert status["phase"] == "deploying"  # type: ignore[index]
    code, out, _ = run(capsys, "app", "logs", "--app_name", "site", "--build", "--no-follow")
    assert out.splitlines()[-1].endswith(f"pushed {status['image']}")  # type: ignore[index]
    cli_env.advance_clock(30)
    code, out, _ = run(capsys, "app", "status", "--app_name", "site")
    assert "running" in out and "recent builds" in out
    code, out, _ = run(capsys, "app", "logs", "--app_name", "site", "--no-follow")
    lines = out.splitlines()
    assert lines[0].endswith("listening on :8080") and lines[-1].endswith("GET /healthz 200")
    listed = payload(capsys, "app", "list")
    assert [a["name"] for a in listed] == ["site"]  # type: ignore[union-attr]


def test_app_deploy_pushes_a_new_build_of_a_changed_tree(
    cli_env: Emulator,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    folder = project(tmp_path, "go")
    monkeypatch.chdir(folder)
    first = payload(capsys, "app", "deploy", "--yes")  # the name go.mod suggests
    assert first["name"] == "api-server"  # type: ignore[index]
    (folder / "main.go").write_text("package main\n")
    second = payload(capsys, "app", "deploy", "--app_name", "api-server")
    assert second["builds"][0]["number"] == 2  # type: ignore[index]
    assert second["image"] != first["image"]  # type: ignore[index]


def test_env_set_merges_variables_and_redeploys(
    cli_env: Emulator,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(project(tmp_path, "nodejs"))
    run(capsys, "deploy", "--app_name", "web")
    code, out, _ = run(capsys, "app", "env", "set", "--app_name", "web", "--vars", "A=1,B=x=y")
    assert code == 0 and "build #2" in out
    run(capsys, "app", "env", "set", "--app_name", "web", "--vars", "C=3")
    assert payload(capsys, "app", "env", "list", "--app_name", "web") == {
        "A": "1",
        "B": "x=y",
        "C": "3",
    }
    code, out, _ = run(capsys, "app", "env", "list", "--app_name", "web")
    assert out.splitlines() == ["A=1", "B=x=y", "C=3"]
    code, _, err = run(capsys, "app", "env", "set", "--app_name", "web", "--vars", "novalue")
    assert code == 1 and "give NAME=value" in err


def test_open_prints_the_url_and_redeploy_builds_again(
    cli_env: Emulator,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(project(tmp_path, "docker"))
    run(capsys, "deploy", "--app_name", "box")
    code, out, _ = run(capsys, "app", "open", "--app_name", "box")
    assert code == 0 and out.strip() == "http://box.default.apps.localhost"
    code, out, _ = run(capsys, "app", "redeploy", "--app_name", "box")
    assert code == 0 and "build #2" in out


def test_remove_asks_for_yes_without_a_terminal_then_deletes(
    cli_env: Emulator,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(project(tmp_path, "python"))
    run(capsys, "deploy", "--app_name", "gone")
    code, _, err = run(capsys, "app", "remove", "--app_name", "gone")
    assert code == 1 and "confirm with --yes" in err
    assert run(capsys, "app", "remove", "--app_name", "gone", "--yes")[0] == 0
    assert payload(capsys, "app", "list") == []
    code, _, err = run(capsys, "app", "status", "--app_name", "gone")
    assert code == 1 and "check the app name and the organization" in err


def test_environments_lists_the_default_and_creates_one(
    cli_env: Emulator,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    (default,) = payload(capsys, "environments")  # type: ignore[misc]
    assert (default["name"], default["built_in"]) == ("default", True)
    made = payload(capsys, "environments", "--create", "eu", "--region", "fra1")
    assert (made["region"], made["cluster"]) == ("FRA1", "fra1-managed")  # type: ignore[index]
    assert [e["name"] for e in payload(capsys, "environments")] == ["default", "eu"]  # type: ignore[union-attr]
    monkeypatch.chdir(project(tmp_path, "python"))
    app = payload(capsys, "deploy", "--app_name", "eu-site", "--environment", "eu")
    assert app["environment"] == "eu"  # type: ignore[index]
    code, _, err = run(capsys, "deploy", "--app_name", "x", "--environment", "nowhere")
    assert code == 1 and "404" in err


def test_without_a_terminal_an_app_command_names_app_name(
    cli_env: Emulator, capsys: pytest.CaptureFixture[str]
) -> None:
    for argv in (["app", "status"], ["app", "logs", "--build"], ["app", "env", "list"]):
        code, _, err = run(capsys, *argv)
        assert code == 1 and len(err.splitlines()) == 1
        assert "pass --app_name (without a terminal)" in err, argv


def test_at_a_terminal_the_app_name_is_asked_for(
    cli_env: Emulator,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(project(tmp_path, "python"))
    run(capsys, "deploy", "--app_name", "asked")
    with Terminal(["app", "status", "--json"], dict(os.environ)) as terminal:
        terminal.expect("Application name: ")
        terminal.send("asked")
        output = terminal.finish()
    assert terminal.status == 0 and '"name": "asked"' in output


def test_an_unknown_organization_is_a_404_with_the_hint(
    cli_env: Emulator, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "app", "list", "--org", "acme")
    assert code == 1
    assert (
        "No organization 'acme'" in err and "check the app name and the organization ('acme'" in err
    )


def test_logs_stream_the_runtime_lines_as_the_clock_moves_until_ctrl_c(
    cli_env: Emulator,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(project(tmp_path, "python"))
    run(capsys, "deploy", "--app_name", "live")
    cli_env.advance_clock(30)
    with Terminal(["app", "logs", "--app_name", "live"], dict(os.environ)) as terminal:
        terminal.expect("listening on :8080")
        assert "GET /healthz" not in terminal.seen
        cli_env.advance_clock(20)  # two health checks later
        terminal.expect("GET /healthz 200")
        terminal.interrupt()
        output = terminal.finish()
    assert terminal.status == 0
    assert output.count("listening on :8080") == 1  # each line once, however often read
