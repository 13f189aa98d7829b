"""``altostratus emulator``'s flags read from ``ALTOSTRATUS_EMULATOR_*`` variables, as LocalStack
and moto users configure their servers: a flag given wins, a bad value is one line naming the
variable, and ``--help`` shows every default and variable."""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from altostratus.cli import main
from altostratus.cli._emulator import configure_parser
from tests.support.interrupt import ctrl_c_stops

ALTOSTRATUS = [sys.executable, "-m", "altostratus"]


def parsed(argv: list[str], **variables: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    environ = {f"ALTOSTRATUS_EMULATOR_{name}": value for name, value in variables.items()}
    configure_parser(parser, environ=environ)
    return parser.parse_args(argv)


def flags() -> list[argparse.Action]:
    parser = argparse.ArgumentParser(add_help=False)
    configure_parser(parser, environ={})
    return list(parser._actions)


@pytest.fixture
def no_emulator_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith("ALTOSTRATUS_EMULATOR_"):
            monkeypatch.delenv(name)


def test_help_shows_every_flags_default_and_variable(
    no_emulator_variables: None, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["emulator", "--help"])
    assert exit_.value.code == 0
    text = " ".join(capsys.readouterr().out.split())  # as one line, whatever the wrapping
    for action in flags():
        (flag,) = action.option_strings
        variable = "ALTOSTRATUS_EMULATOR_" + flag[2:].upper().replace("-", "_")
        assert f"; env {variable})" in text, flag
    for default in ("127.0.0.1", "8787", "8788", "local-dev-key", "in memory", "text"):
        assert f"(default: {default};" in text
    assert "a flag given on the command line wins" in text


def test_the_variables_set_every_kind_of_flag() -> None:
    args = parsed(
        [],
        HOST="127.0.0.2",
        PORT="9001",
        API_KEY="env-key",
        TIME_SCALE="60",
        RATE_LIMIT="5",
        STATE_DIR="/srv/state",
        STRICT="true",
        REMOTE_DELIVERIES="0",
        QUIET="yes",
        EXTRA_REGION="LOCAL, FAKE:object_store,loadbalancer  EDGE:iaas",
        LOG_FORMAT="json",
    )
    assert (args.host, args.port, args.s3_port, args.api_key) == (
        "127.0.0.2",
        9001,
        8788,
        "env-key",
    )
    assert (args.time_scale, args.rate_limit, args.state_dir) == (60.0, 5.0, "/srv/state")
    assert (args.strict, args.remote_deliveries, args.quiet) == (True, False, True)
    assert args.extra_region == ["LOCAL", "FAKE:object_store,loadbalancer", "EDGE:iaas"]
    assert args.log_format == "json"


def test_unset_or_empty_variables_leave_the_defaults() -> None:
    args = parsed([], PORT="", STRICT=" ")
    assert (args.port, args.strict, args.extra_region, args.rate_limit) == (8787, False, [], None)


def test_a_flag_on_the_command_line_wins_over_its_variable() -> None:
    args = parsed(
        ["--port", "9002", "--strict", "--extra-region", "OTHER", "--log-format", "text"],
        PORT="9001",
        STRICT="false",
        EXTRA_REGION="LOCAL FAKE",
        LOG_FORMAT="json",
    )
    assert (args.port, args.strict, args.extra_region, args.log_format) == (
        9002,
        True,
        ["OTHER"],
        "text",
    )


@pytest.mark.parametrize(
    ("variable", "value", "said"),
    [
        ("PORT", "http", "ALTOSTRATUS_EMULATOR_PORT: 'http' is not a port"),
        ("S3_PORT", "70000", "ALTOSTRATUS_EMULATOR_S3_PORT: '70000' is not a port"),
        ("TIME_SCALE", "nan", "ALTOSTRATUS_EMULATOR_TIME_SCALE='nan': must be a finite number"),
        ("STRICT", "maybe", "ALTOSTRATUS_EMULATOR_STRICT='maybe': must be one of true, 1"),
        ("LOG_FORMAT", "xml", "ALTOSTRATUS_EMULATOR_LOG_FORMAT: 'xml' is not one of text, json"),
        ("EXTRA_REGION", "LOCAL LON1", "ALTOSTRATUS_EMULATOR_EXTRA_REGION='LOCAL LON1': LON1"),
        ("API_KEY", "a\tkey", "ALTOSTRATUS_EMULATOR_API_KEY='a\\tkey': must not hold spaces"),
    ],
)
def test_a_bad_value_is_one_line_naming_the_variable(variable: str, value: str, said: str) -> None:
    env = {**os.environ, f"ALTOSTRATUS_EMULATOR_{variable}": value}
    answer = subprocess.run(
        [*ALTOSTRATUS, "emulator"], capture_output=True, text=True, env=env, timeout=60
    )
    assert answer.returncode == 1
    (line,) = answer.stderr.splitlines()
    assert said in line and "Traceback" not in line, line


def test_a_bad_emulator_variable_does_not_touch_other_commands(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("ALTOSTRATUS_EMULATOR_PORT", "http")
    with pytest.raises(SystemExit) as exit_:
        main(["quota", "--help"])
    assert exit_.value.code == 0
    assert "ALTOSTRATUS_EMULATOR_PORT" not in capsys.readouterr().err


def test_the_emulator_serves_as_its_variables_say(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "ALTOSTRATUS_EMULATOR_PORT": "0",
        "ALTOSTRATUS_EMULATOR_S3_PORT": "0",
        "ALTOSTRATUS_EMULATOR_API_KEY": "env-key",
        "ALTOSTRATUS_EMULATOR_EXTRA_REGION": "LOCAL",
        "ALTOSTRATUS_EMULATOR_STATE_DIR": str(tmp_path / "state"),
        "ALTOSTRATUS_EMULATOR_QUIET": "1",
    }
    with subprocess.Popen(
        ctrl_c_stops([*ALTOSTRATUS, "emulator"]),
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    ) as process:
        try:
            assert process.stdout is not None
            header = dict(process.stdout.readline().split(":", 1) for _ in range(4))
            request = urllib.request.Request(
                header["API"].strip() + "/v2/regions",
                headers={"Authorization": "bearer env-key"},
            )
            with urllib.request.urlopen(request, timeout=10) as answer:
                codes = [region["code"] for region in json.load(answer)]
        finally:
            process.send_signal(signal.SIGINT)
            process.wait(timeout=10)
    assert header["API key"].strip() == "env-key"
    assert header["State"].strip() == str(tmp_path / "state")
    assert "LOCAL" in codes
    assert (tmp_path / "state").is_dir()
