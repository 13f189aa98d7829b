"""``cli setup``, ``auth`` (and ``--status``), ``logout``, ``whoami``, ``regions`` and
``update`` against the emulator; stdin is no terminal unless a pseudo-terminal is used."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from altostratus.cli import main
from altostratus.cli._rules import CONFIG_FILE, SESSION_FILE, write_file
from altostratus.emulator import Emulator
from tests.support.pseudo_terminal import PATIENCE, Terminal


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv), prog="cli")
    out, err = capsys.readouterr()
    return code, out, err


def test_setup_checks_the_key_then_stores_url_key_and_organization(
    cli_home: Path, fresh_emulator: Emulator, capsys: pytest.CaptureFixture[str]
) -> None:
    url, key = fresh_emulator.api_url, fresh_emulator.api_key
    code, out, err = run(capsys, "setup", "--api-url", url, "--api-key", key, "--org", "default")
    assert code == 0, err
    stored = json.loads((cli_home / CONFIG_FILE).read_text())
    assert stored == {"api_url": url, "api_key": key, "org": "default"}
    assert key not in out
    # The stored configuration is the last layer: quota and the organization come from it.
    code, out, _ = run(capsys, "cluster", "list", "--json")
    assert code == 0 and json.loads(out)[0]["organization"] == "default"


def test_setup_with_yes_takes_the_keys_first_organization(
    cli_home: Path, fresh_emulator: Emulator, capsys: pytest.CaptureFixture[str]
) -> None:
    url, key = fresh_emulator.api_url, fresh_emulator.api_key
    assert run(capsys, "setup", "--api-url", url, "--api-key", key, "--yes")[0] == 0
    assert json.loads((cli_home / CONFIG_FILE).read_text())["org"] == "default"


@pytest.mark.parametrize(
    ("flags", "expected"),
    [
        (["--api-key", "wrong", "--org", "default"], "401"),
        (["--org", "default"], "pass --api-key (without a terminal)"),
        (["--org", "nowhere"], "the key belongs to no organization 'nowhere'"),
    ],
)
def test_a_setup_that_fails_writes_nothing(
    cli_home: Path,
    fresh_emulator: Emulator,
    capsys: pytest.CaptureFixture[str],
    flags: list[str],
    expected: str,
) -> None:
    given = ["--api-url", fresh_emulator.api_url]
    if "--api-key" not in flags and "nowhere" in flags:
        given += ["--api-key", fresh_emulator.api_key]
    code, _, err = run(capsys, "setup", *given, *flags)
    assert code == 1 and len(err.splitlines()) == 1 and expected in err, err
    assert not cli_home.exists()


def test_a_setup_against_nothing_listening_writes_nothing(
    cli_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(
        capsys, "setup", "--api-url", "http://127.0.0.1:9", "--api-key", "k", "--org", "o"
    )
    assert code == 1 and "cannot reach http://127.0.0.1:9" in err
    assert not cli_home.exists()


def test_setup_at_a_terminal_asks_for_what_is_missing(cli_home: Path, emulator: Emulator) -> None:
    environ = {**os.environ, "CLI_CONFIG_DIR": str(cli_home)}
    with Terminal(["setup", "--api-url", emulator.api_url], environ) as terminal:
        terminal.expect("API key: ")
        terminal.send(emulator.api_key)
        terminal.expect("Default organization [default]: ")
        terminal.send("")
        output = terminal.finish()
    assert terminal.status == 0, output
    assert emulator.api_key not in output  # typed hidden
    assert json.loads((cli_home / CONFIG_FILE).read_text())["org"] == "default"


def _approve(page: str, key: str) -> str:
    """What the person does in the browser: open the page, type the key, submit."""
    with urllib.request.urlopen(page, timeout=PATIENCE) as answer:
        html = answer.read().decode()
    code = re.search(r'name="user_code" value="([A-Z-]+)"', html)
    assert code is not None, html
    form = urllib.parse.urlencode({"user_code": code.group(1), "api_key": key}).encode()
    action = urllib.parse.urljoin(page, "/login/device")
    with urllib.request.urlopen(action, data=form, timeout=PATIENCE) as answer:
        return answer.read().decode()


def test_auth_logs_in_through_the_page_the_emulator_serves(
    cli_home: Path, fresh_emulator: Emulator, capsys: pytest.CaptureFixture[str]
) -> None:
    environ = {**os.environ, "CLI_CONFIG_DIR": str(cli_home), "CLI_API_URL": fresh_emulator.api_url}
    code = "from altostratus.cli import cli_entry; cli_entry()"
    process = subprocess.Popen(
        [sys.executable, "-c", code, "auth"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=environ,
        text=True,
    )
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        page = re.search(r"Open (\S+) and enter the code ([A-Z-]+)", first)
        assert page is not None, first
        assert not (cli_home / SESSION_FILE).exists()  # nothing before the login completes
        assert "Logged in as default" in _approve(page.group(1), fresh_emulator.api_key)
        out, err = process.communicate(timeout=PATIENCE)
    finally:
        process.kill()
    assert process.returncode == 0, err
    assert "Logged in as default@example.com (default)" in out
    session = json.loads((cli_home / SESSION_FILE).read_text())
    assert session["api_key"] == fresh_emulator.api_key
    assert session["api_url"] == fresh_emulator.api_url
    assert (cli_home / SESSION_FILE).stat().st_mode & 0o777 == 0o600
    # The session is a credential layer, and --status finds it valid.
    code_, out_, _ = run(capsys, "auth", "--status")
    assert code_ == 0 and "The session is valid: default@example.com" in out_


def test_the_login_page_refuses_a_wrong_key_and_the_session_is_not_given(
    fresh_emulator: Emulator,
) -> None:
    start = urllib.request.Request(f"{fresh_emulator.api_url}/api/v1/auth/device", method="POST")
    with urllib.request.urlopen(start, data=b"{}", timeout=PATIENCE) as answer:
        login = json.loads(answer.read())
    with pytest.raises(urllib.error.HTTPError) as refused:
        _approve(login["verification_uri_complete"], "not-the-key")
    assert refused.value.code == 401
    token = json.dumps({"device_code": login["device_code"]}).encode()
    with pytest.raises(urllib.error.HTTPError) as pending:
        urllib.request.urlopen(
            f"{fresh_emulator.api_url}/api/v1/auth/token", data=token, timeout=PATIENCE
        )
    assert json.loads(pending.value.read())["code"] == "authorization_pending"
    fresh_emulator.advance_clock(601)
    with pytest.raises(urllib.error.HTTPError) as expired:
        urllib.request.urlopen(
            f"{fresh_emulator.api_url}/api/v1/auth/token", data=token, timeout=PATIENCE
        )
    assert json.loads(expired.value.read())["code"] == "expired_token"


def test_auth_status_without_a_session_or_with_a_dead_one_fails_in_one_line(
    cli_home: Path, fresh_emulator: Emulator, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "auth", "--status")
    assert code == 1 and "not logged in" in err and "cli auth" in err
    write_file(cli_home / SESSION_FILE, {"api_url": fresh_emulator.api_url, "api_key": "revoked"})
    code, _, err = run(capsys, "auth", "--status")
    assert code == 1 and len(err.splitlines()) == 1 and "401" in err


def test_logout_forgets_the_session_only(
    cli_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_file(cli_home / SESSION_FILE, {"api_key": "k"})
    write_file(cli_home / CONFIG_FILE, {"api_key": "k", "org": "o"})
    code, out, _ = run(capsys, "logout")
    assert code == 0 and "Forgot the session" in out
    assert not (cli_home / SESSION_FILE).exists() and (cli_home / CONFIG_FILE).exists()
    assert run(capsys, "logout")[1].strip() == "No session to forget."


def test_whoami_shows_identity_roles_and_organizations(
    cli_home: Path,
    fresh_emulator: Emulator,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("CLI_API_URL", fresh_emulator.api_url)
    monkeypatch.setenv("CLI_API_KEY", fresh_emulator.api_key)
    code, out, _ = run(capsys, "whoami")
    assert code == 0
    assert "default@example.com" in out and "owner" in out and "default (owner)" in out
    identity = json.loads(run(capsys, "whoami", "--json")[1])
    assert identity["organizations"] == [{"name": "default", "role": "owner"}]


def test_regions_lists_the_services_regions(
    cli_home: Path,
    fresh_emulator: Emulator,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("CLI_API_URL", fresh_emulator.api_url)
    monkeypatch.setenv("CLI_API_KEY", fresh_emulator.api_key)
    regions = json.loads(run(capsys, "regions", "--json")[1])
    assert "LON1" in {region["code"] for region in regions}
    code, out, _ = run(capsys, "regions")
    assert code == 0 and out.split()[:4] == ["code", "name", "country", "default"]


def test_update_prints_commands_and_changes_nothing(
    cli_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "update")
    assert code == 0 and "cli mcp" in out and "--upgrade" in out
    assert not cli_home.exists()
