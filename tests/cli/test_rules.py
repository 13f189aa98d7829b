"""The service CLI's six rules, as ``cli`` applies them on every command (stdin is never a
terminal here: nothing may prompt)."""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path

import httpx
import pytest

from altostratus.cli import build_parser, main
from altostratus.cli._rules import (
    CONFIG_FILE,
    SESSION_FILE,
    Invocation,
    Refused,
    resolve_credentials,
    target,
    write_file,
)
from altostratus.emulator import Emulator


def cli(argv: list[str]) -> int:
    return main(argv, prog="cli")


def one_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    lines = err.splitlines()
    assert len(lines) == 1, err
    return lines[0]


# Rule 1: targets.


def _target(argv: list[str]) -> str:
    parser = build_parser("cli")
    return target(parser.parse_args(["platform-env", "get", *argv]), "platform environment")


def test_a_target_is_a_bare_name_or_the_name_flag_and_the_flag_wins() -> None:
    assert _target(["dev"]) == "dev"
    assert _target(["--name", "dev"]) == "dev"
    assert _target(["bare", "--name", "flag"]) == "flag"


def test_two_bare_names_are_refused_and_so_is_none() -> None:
    with pytest.raises(Refused, match=r"2 names given \(a, b\); give one"):
        _target(["a", "b"])
    with pytest.raises(Refused, match="give its name, bare or as --name"):
        _target([])


def test_two_bare_names_fail_the_command_in_one_line(
    cli_home: Path, emulator: Emulator, capsys: pytest.CaptureFixture[str]
) -> None:
    env = ["--api-url", emulator.api_url, "--org", "default"]
    assert cli(["platform-env", "get", "a", "b", *env]) == 1
    assert "2 names given (a, b)" in one_line(capsys)


# Rule 2: long flags only.


@pytest.mark.parametrize("argv", [["-j"], ["quota", "-j"], ["platform-env", "list", "-o", "x"]])
def test_a_short_flag_is_refused_in_one_line(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli(argv) == 1
    line = one_line(capsys)
    assert line.startswith("cli: error: -") and "short flags do not exist" in line


def test_a_value_after_double_dash_is_not_a_flag(cli_home: Path) -> None:
    args = build_parser("cli").parse_args(["platform-env", "get", "--", "-x"])
    assert target(args, "platform environment") == "-x"


def test_an_unknown_long_flag_fails_with_status_1_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli(["quota", "--colour"])
    assert exit_.value.code == 1
    assert "--colour" in one_line(capsys)


# Rule 3: --json on every read.


def test_every_read_command_takes_json() -> None:
    parser = build_parser("cli")
    reads = [
        ["quota"],
        ["platform-env", "list"],
        ["platform-env", "get", "x"],
        ["cluster", "list"],
        ["platform-app", "list"],
        ["platform-app", "get", "x"],
        ["platform-app-deployment", "list"],
        ["platform-app-deployment", "get", "x"],
        ["whoami"],
        ["regions"],
        ["detect"],
        ["environments"],
        ["auth", "--status"],
        ["app", "list"],
        ["app", "status"],
        ["app", "env", "list"],
        ["app", "logs"],
    ]
    for argv in reads:
        assert parser.parse_args([*argv, "--json"]).json is True, argv


def test_quota_json_prints_the_raw_payload(
    cli_home: Path,
    fresh_emulator: Emulator,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("CLI_API_KEY", fresh_emulator.api_key)
    monkeypatch.setenv("CLI_API_URL", fresh_emulator.api_url)
    assert cli(["quota", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    raw = httpx.get(
        f"{fresh_emulator.api_url}/v2/quota",
        headers={"Authorization": f"bearer {fresh_emulator.api_key}"},
    ).json()
    assert printed == raw


# Rule 4: --yes, and no prompt without a terminal.


def _invocation(argv: list[str], environ: dict[str, str] | None = None) -> Invocation:
    args = build_parser("cli").parse_args(argv)
    return Invocation(args, environ or {}, stdin=io.StringIO(""))


def test_without_a_terminal_a_confirmation_fails_naming_yes() -> None:
    invocation = _invocation(["platform-env", "delete", "x"])
    with pytest.raises(Refused, match="confirm with --yes"):
        invocation.confirm("Delete the platform environment 'x'?")
    assert _invocation(["platform-env", "delete", "x", "--yes"]).confirm("Delete?") is True


# Rule 5: the organization.


def test_the_organization_comes_from_the_flag_then_cli_org_then_the_stored_default(
    tmp_path: Path,
) -> None:
    write_file(tmp_path / CONFIG_FILE, {"org": "stored"})
    environ = {"CLI_CONFIG_DIR": str(tmp_path), "CLI_ORG": "from-env"}
    assert _invocation(["cluster", "list", "--org", "flag"], environ).org() == "flag"
    assert _invocation(["cluster", "list"], environ).org() == "from-env"
    assert _invocation(["cluster", "list"], {"CLI_CONFIG_DIR": str(tmp_path)}).org() == "stored"


def test_without_an_organization_or_a_terminal_the_ways_to_give_one_are_named(
    tmp_path: Path,
) -> None:
    with pytest.raises(Refused) as refused:
        _invocation(["cluster", "list"], {"CLI_CONFIG_DIR": str(tmp_path)}).org()
    for way in ("--org", "CLI_ORG", "cli setup"):
        assert way in str(refused.value)


# Rule 6: the credentials' layers.


def test_each_credential_comes_from_the_earliest_layer_that_sets_it(tmp_path: Path) -> None:
    write_file(tmp_path / SESSION_FILE, {"api_url": "http://session:1", "api_key": "session-key"})
    write_file(tmp_path / CONFIG_FILE, {"api_url": "http://config:1", "api_key": "config-key"})
    folder = {"CLI_CONFIG_DIR": str(tmp_path)}
    found = resolve_credentials(None, folder)
    assert (found.api_url, found.api_key, found.key_from) == (
        "http://session:1",
        "session-key",
        "session",
    )
    found = resolve_credentials(None, {**folder, "CLI_API_KEY": "env-key"})
    assert (found.api_url, found.api_key, found.key_from) == (
        "http://session:1",
        "env-key",
        "environment",
    )
    found = resolve_credentials("http://flag:1", {**folder, "CLI_API_URL": "http://env:1"})
    assert (found.api_url, found.url_from) == ("http://flag:1", "--api-url")
    (tmp_path / SESSION_FILE).unlink()
    found = resolve_credentials(None, folder)
    assert (found.api_key, found.key_from) == ("config-key", "configuration")
    assert "config-key" not in repr(found)


def test_cli_config_dir_moves_the_session_file(
    cli_home: Path, fresh_emulator: Emulator, capsys: pytest.CaptureFixture[str]
) -> None:
    write_file(
        cli_home / SESSION_FILE,
        {"api_url": fresh_emulator.api_url, "api_key": fresh_emulator.api_key},
    )
    assert cli(["quota", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["network_count_limit"] == 10


def test_a_session_file_that_is_not_json_is_named_in_one_line(
    cli_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cli_home.mkdir(parents=True)
    (cli_home / SESSION_FILE).write_text("{not json", encoding="utf-8")
    assert cli(["quota"]) == 1
    assert f"{cli_home / SESSION_FILE} is not valid JSON; fix or remove it" in one_line(capsys)


def test_files_are_written_whole_and_for_their_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "deep" / SESSION_FILE
    write_file(path, {"api_key": "k"})
    assert json.loads(path.read_text()) == {"api_key": "k"}
    assert path.stat().st_mode & 0o777 == 0o600
    assert [p.name for p in path.parent.iterdir()] == [SESSION_FILE]


# Exit codes and one line.


def test_a_failed_call_is_one_line_and_status_1(
    cli_home: Path,
    fresh_emulator: Emulator,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("CLI_API_KEY", "wrong")
    assert cli(["quota", "--api-url", fresh_emulator.api_url]) == 1
    line = one_line(capsys)
    assert line.startswith("cli: error: 401") and "wrong" not in line


def test_the_program_name_leads_every_failure(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["-x"]) == 1
    assert one_line(capsys).startswith("altostratus: error: -x")


def test_help_names_the_program(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli(["--help"])
    assert capsys.readouterr().out.startswith("usage: cli ")


def test_an_argument_parser_declares_no_short_flag() -> None:
    parser = build_parser("cli")
    with pytest.raises(ValueError, match="only long flags"):
        parser.add_argument("-x")
    assert isinstance(parser, argparse.ArgumentParser)
