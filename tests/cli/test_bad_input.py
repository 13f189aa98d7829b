"""Every command of the client fed bad input: a wrong key, an unreachable URL, an unknown
organization, a wrong flag. Each fails with status 1 in one line and writes no file."""

from __future__ import annotations

from pathlib import Path

import pytest

from altostratus.cli import main
from altostratus.emulator import Emulator

#: Each command that calls the service, with what it needs besides the credentials.
CALLING: dict[str, list[str]] = {
    "whoami": [],
    "regions": [],
    "quota": [],
    "environments": [],
    "deploy": ["--app_name", "x"],
    "app deploy": ["--app_name", "x"],
    "app list": [],
    "app status": ["--app_name", "x"],
    "app logs": ["--app_name", "x", "--no-follow"],
    "app env list": ["--app_name", "x"],
    "app env set": ["--app_name", "x", "--vars", "A=1"],
    "app open": ["--app_name", "x"],
    "app redeploy": ["--app_name", "x"],
    "app remove": ["--app_name", "x", "--yes"],
    "platform-env list": [],
    "platform-env get": ["x"],
    "platform-env create": ["x"],
    "platform-env attach": ["x", "--cluster", "lon1-managed"],
    "platform-env detach": ["x", "--cluster", "lon1-managed"],
    "platform-env delete": ["x", "--yes"],
    "cluster list": [],
    "platform-app register": ["x", "--repository", "https://example.com/x.git"],
    "platform-app list": [],
    "platform-app get": ["x"],
    "platform-app deploy": ["x", "--environment", "dev"],
    "platform-app-deployment list": [],
    "platform-app-deployment get": ["x"],
    "setup": ["--api-key", "k", "--org", "default"],
}
#: The commands that work in an organization (all but these).
NO_ORG = {"whoami", "regions", "quota", "platform-env list", "setup"}


@pytest.fixture
def app_home(
    cli_home: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, emulator: Emulator
) -> Path:
    """``cli_home``, the organization ``default``, in a working folder holding an application."""
    monkeypatch.setenv("CLI_ORG", "default")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "requirements.txt").write_text("flask\n")  # deploy finds an application
    return cli_home


def fails_in_one_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    code = main(argv, prog="cli")
    out, err = capsys.readouterr()
    assert code == 1, (argv, out, err)
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("cli: error: "), (argv, err)
    return lines[0]


@pytest.mark.parametrize("name", sorted(CALLING))
def test_a_wrong_key_fails_in_one_line_naming_the_401(
    name: str,
    app_home: Path,
    emulator: Emulator,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("CLI_API_KEY", "wrong-key")
    argv = [*name.split(), *CALLING[name], "--api-url", emulator.api_url]
    if name == "setup":
        argv[argv.index("k")] = "wrong-key"
    line = fails_in_one_line(argv, capsys)
    assert "401" in line and "wrong-key" not in line
    assert not app_home.exists()


@pytest.mark.parametrize("name", sorted(CALLING))
def test_an_unreachable_url_fails_in_one_line(
    name: str, app_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CLI_API_KEY", "k")
    argv = [*name.split(), *CALLING[name], "--api-url", "http://127.0.0.1:9"]
    assert "cannot reach http://127.0.0.1:9" in fails_in_one_line(argv, capsys)
    assert not app_home.exists()


@pytest.mark.parametrize("name", sorted(set(CALLING) - NO_ORG))
def test_an_unknown_organization_fails_with_the_hint(
    name: str,
    app_home: Path,
    emulator: Emulator,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("CLI_API_KEY", emulator.api_key)
    argv = [*name.split(), *CALLING[name], "--api-url", emulator.api_url, "--org", "acme"]
    line = fails_in_one_line(argv, capsys)
    assert "404" in line and "check the app name and the organization ('acme'" in line


@pytest.mark.parametrize("name", sorted(CALLING))
def test_a_wrong_flag_fails_with_status_1_in_one_line(
    name: str, app_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main([*name.split(), *CALLING[name], "--colour", "red"], prog="cli")
    assert exit_.value.code == 1
    (line,) = capsys.readouterr().err.splitlines()
    assert "--colour" in line
    assert not app_home.exists()
