"""``altostratus run`` as a newcomer meets it: every example end to end, and each failure.

The command starts its own emulator; the tests swap in one that notes, as it stops, what the
account still holds (it is fast to provision, as the suite's is).
"""

from __future__ import annotations

import io
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from altostratus.cli import _deploy, main
from altostratus.cli._progress import Progress
from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.testing import OutputValue
from tests.support.account import EXAMPLES, leftovers
from tests.support.interrupt import ctrl_c_stops

#: Projects an example reads through a StackReference, run before it.
BEFORE = {"stack-composition": ["private-network"], "default-network": ["private-network"]}
ALL_EXAMPLES = sorted(path.parent.name for path in EXAMPLES.glob("*/Pulumi.yaml"))
STEP = re.compile(r"^ \S+\s+(?P<type>\S+) (?P<name>\S+) (?P<what>[a-z ]+) \([^)]+\)$")


class NotingEmulator(Emulator):
    made: list[NotingEmulator] = []

    def __init__(self, **settings: Any) -> None:
        super().__init__(lb_ready_seconds=0.2, objectstore_ready_seconds=0.1, **settings)
        self.left: dict[str, int] | None = None
        NotingEmulator.made.append(self)

    def stop(self) -> None:
        if self.left is None and self.api_url:
            self.left = leftovers(self)
        super().stop()


@pytest.fixture
def emulators(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[NotingEmulator]]:
    NotingEmulator.made = []
    monkeypatch.setattr(_deploy, "Emulator", NotingEmulator)
    yield NotingEmulator.made


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["run", *args])
    out, err = capsys.readouterr()
    return status, out, err


def steps(out: str, what: str) -> list[tuple[str, str]]:
    """The ``(type, name)`` of every progress line saying ``what`` (``created``...)."""
    found = [STEP.match(line) for line in out.splitlines()]
    return [(m["type"], m["name"]) for m in found if m and m["what"] == what]


@pytest.mark.parametrize("example", ALL_EXAMPLES)
def test_every_example_comes_up_and_goes_down_leaving_nothing(
    example: str, emulators: list[NotingEmulator], capsys: pytest.CaptureFixture[str]
) -> None:
    projects = [str(EXAMPLES / name) for name in [*BEFORE.get(example, []), example]]
    status, out, err = run(capsys, *projects)

    assert status == 0, err
    assert "not the Pulumi engine" in out.splitlines()[0]
    created = steps(out, "created")
    assert created and sorted(created) == sorted(steps(out, "creating"))
    assert all(kind.startswith("altostratus:") for kind, _ in created)
    assert sorted(steps(out, "deleted")) == sorted(created)
    assert re.search(r" created \(\d+\.\d\ds\)$", out, re.MULTILINE)
    assert f"Updating {example.join(['altostratus-', ''])} (dev)" in out
    assert "Outputs:" in out and "Duration: " in out
    for line in out.splitlines():
        if re.match(r"^    (secret|secret_access_key|access_key_id)\s*:", line):
            assert line.endswith(": [secret]"), line
    (emulator,) = emulators
    assert emulator.left == {}


def test_secrets_are_shown_when_asked(
    emulators: list[NotingEmulator], capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(capsys, str(EXAMPLES / "object-storage"), "--show-secrets")
    assert status == 0
    (line,) = [line for line in out.splitlines() if line.startswith("    secret_access_key")]
    assert "[secret]" not in line and re.search(r': "\S{20,}"$', line)


def test_a_preview_makes_nothing(
    emulators: list[NotingEmulator], capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(capsys, str(EXAMPLES / "load-balancer"), "--preview")
    assert status == 0
    assert "Previewing update altostratus-load-balancer (dev)" in out
    assert steps(out, "created") == [] and "Destroying" not in out
    assert " +  altostratus:LoadBalancer web create" in out.splitlines()
    assert "[unknown]" in out and "to create" in out
    (emulator,) = emulators
    assert emulator.left == {}


def test_a_readiness_wait_shows_one_line_on_the_resource_s_row(
    emulators: list[NotingEmulator], capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(capsys, str(EXAMPLES / "load-balancer"))
    assert status == 0
    waits = [line for line in out.splitlines() if ": waiting up to " in line]
    assert len(waits) == 1, out
    assert re.fullmatch(
        r" \+  altostratus:LoadBalancer web creating \(\d+s\) load balancer 'web-\w+': "
        r"waiting up to \d+ s for it to be ready",
        waits[0],
    ), waits


def test_config_reaches_the_program_and_a_refused_input_fails_in_one_line(
    emulators: list[NotingEmulator], capsys: pytest.CaptureFixture[str]
) -> None:
    project = str(EXAMPLES / "private-network")
    status, out, err = run(capsys, project, "--config", "adminCidr=not-a-cidr")

    assert status == 1
    assert err.splitlines() == [
        "altostratus: error: FirewallRule 'ssh' of altostratus-private-network: invalid input "
        "cidr: cidr holds 'not-a-cidr', which is not a CIDR such as 10.0.0.0/8"
    ]
    assert steps(out, "created") and sorted(steps(out, "deleted")) == sorted(steps(out, "created"))
    (emulator,) = emulators
    assert emulator.left == {}


def test_a_program_error_shows_the_programs_traceback_then_one_line(
    tmp_path: Path, emulators: list[NotingEmulator], capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "Pulumi.yaml").write_text("name: broken\nruntime: python\n")
    (tmp_path / "__main__.py").write_text(
        "import altostratus as alto\n\n\ndef backends():\n    return undefined_name\n\n\n"
        "alto.LoadBalancer('web', network_id='n', backends=backends())\n"
    )
    status, _, err = run(capsys, str(tmp_path))

    assert status == 1
    lines = err.splitlines()
    assert lines[0] == "Traceback (most recent call last):"
    assert lines[1] == f'  File "{tmp_path / "__main__.py"}", line 8, in <module>'
    assert "runpy" not in err and "altostratus/cli" not in err
    assert lines[-2] == "NameError: name 'undefined_name' is not defined"
    assert lines[-1] == (
        "altostratus: error: the program of broken failed: NameError: name 'undefined_name' "
        "is not defined (the program's traceback is above)"
    )
    (emulator,) = emulators
    assert emulator.left == {}


def test_a_missing_stack_reference_names_the_fix_and_leaves_nothing(
    emulators: list[NotingEmulator], capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(capsys, str(EXAMPLES / "stack-composition"))

    assert status == 1
    assert err.splitlines() == [
        "altostratus: error: altostratus-stack-composition reads the stack "
        "'organization/altostratus-private-network/dev', which this run does not make: name its "
        f"project first: altostratus run <its project> {EXAMPLES / 'stack-composition'}"
    ]
    assert sorted(steps(out, "deleted")) == sorted(steps(out, "created"))
    (emulator,) = emulators
    assert emulator.left == {}


@pytest.mark.parametrize(
    ("files", "problem"),
    [
        ({}, "is not a Pulumi project: it has no Pulumi.yaml"),
        (
            {"Pulumi.yaml": "name: web\nruntime: nodejs\n"},
            "is a nodejs project without a Python runtime; this command runs Python programs",
        ),
        (
            {"Pulumi.yaml": "name: web\nruntime:\n  name: python\n"},
            "is not a Python Pulumi project: it has no __main__.py",
        ),
    ],
)
def test_a_directory_that_is_not_a_python_project_fails_in_one_line(
    tmp_path: Path,
    files: dict[str, str],
    problem: str,
    emulators: list[NotingEmulator],
    capsys: pytest.CaptureFixture[str],
) -> None:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    status, out, err = run(capsys, str(tmp_path))
    assert status == 1 and out == ""
    assert err.splitlines() == [f"altostratus: error: {tmp_path} {problem}"]
    assert emulators == []


def test_config_must_be_key_equals_value(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["run", str(EXAMPLES / "webhooks"), "--config", "url"])
    assert exit_.value.code == 1
    (line,) = capsys.readouterr().err.splitlines()
    assert "'url' is not KEY=VALUE" in line


def test_kept_the_emulator_serves_what_was_made_until_ctrl_c() -> None:
    command = [sys.executable, "-m", "altostratus", "run", "--keep", str(EXAMPLES / "webhooks")]
    with subprocess.Popen(ctrl_c_stops(command), stdout=subprocess.PIPE, text=True) as running:
        assert running.stdout is not None
        said: list[str] = []
        for line in running.stdout:
            said.append(line.rstrip("\n"))
            if "pulumi config set --secret altostratus:apiKey" in line:
                break
        text = "\n".join(said)
        url = re.search(r"export ALTOSTRATUS_API_URL=(\S+) ALTOSTRATUS_API_KEY=(\S+)", text)
        assert url is not None, text
        assert "Destroying" not in text and "Ctrl-C" in text
        with Client(api_url=url[1], api_key=url[2]) as client:
            (hook,) = client.webhooks.list()
        assert hook.url == "http://127.0.0.1:8789/"

        running.send_signal(signal.SIGINT)
        rest, _ = running.communicate(timeout=30)
    assert running.returncode == 0
    assert rest.strip().endswith("Emulator stopped.")


class CtrlCWhileSaying(io.StringIO):
    """A terminal whose user presses Ctrl-C the moment the emulator's address is written."""

    def write(self, text: str) -> int:
        if "apiKey" in text:
            signal.raise_signal(signal.SIGINT)
        return super().write(text)


def test_ctrl_c_as_the_address_is_printed_still_stops_the_emulator_in_words() -> None:
    out = CtrlCWhileSaying()
    before = signal.getsignal(signal.SIGINT)
    with Emulator() as emulator:
        _deploy._serve(emulator, Progress(out))
    said = out.getvalue()
    assert "pulumi config set --secret altostratus:apiKey" in said
    assert said.strip().endswith("Emulator stopped.")
    assert signal.getsignal(signal.SIGINT) is before  # the caller's handler is back


def test_the_provider_process_started_early_is_the_one_the_runner_starts() -> None:
    from altostratus.testing.runner import COMMAND, ProviderProcess

    assert ProviderProcess.command == COMMAND


def test_a_secret_inside_an_output_is_masked_unless_secrets_are_shown() -> None:
    outputs = {"keys": OutputValue({"id": "AKIA-plain", "name": "ci"}, secret_paths=(("id",),))}
    masked = Progress(io.StringIO()).outputs(outputs, preview=False)
    assert masked == ['    keys: {"id": "[secret]", "name": "ci"}']
    shown = Progress(io.StringIO(), show_secrets=True).outputs(outputs, preview=False)
    assert shown == ['    keys: {"id": "AKIA-plain", "name": "ci"}']


PLUGIN_PROGRAM = """\
import pulumi

import altostratus
import altostratus.plugin as alto

net = alto.Network("through", cidr_v4="10.80.0.0/24")
altostratus.Network("plain", cidr_v4="10.81.0.0/24")
pulumi.export("label", net.label)
"""


def test_a_plugin_program_runs_and_the_summary_says_which_front_end_ran_what(
    emulators: list[NotingEmulator], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "Pulumi.yaml").write_text("name: through-plugin\nruntime: python\n")
    (tmp_path / "__main__.py").write_text(PLUGIN_PROGRAM)
    status, out, err = run(capsys, str(tmp_path))

    assert status == 0, err
    created = steps(out, "created")
    assert ("altostratus:index:Network", "through") in created
    assert ("altostratus:Network", "plain") in created
    assert "Front ends: 1 dynamic, 1 plugin" in out.splitlines()
    assert sorted(steps(out, "deleted")) == sorted(created)
    (emulator,) = emulators
    assert emulator.left == {}
