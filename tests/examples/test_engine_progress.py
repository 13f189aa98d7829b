"""What ``pulumi up`` shows while a resource waits or a call is retried: one line on its row."""

from __future__ import annotations

from pathlib import Path

import pytest

from altostratus.emulator import Emulator
from tests.support.pulumi_cli import Project

pytestmark = [pytest.mark.real_engine, pytest.mark.timeout(600)]

PROGRAM = """\
import altostratus as alto

BACKEND = {"ip": "10.47.0.10", "protocol": "TCP", "source_port": 80, "target_port": 8080}
network = alto.Network("app", cidr_v4="10.47.0.0/24")
alto.LoadBalancer("web", network_id=network.id, backends=[BACKEND])
"""


def project_of(tmp_path: Path, emulator: Emulator) -> Project:
    source = tmp_path / "source" / "waits"
    source.mkdir(parents=True)
    (source / "Pulumi.yaml").write_text(
        "name: waits\nruntime:\n  name: python\n  options:\n    toolchain: pip\n"
        "    virtualenv: venv\n"
    )
    (source / "__main__.py").write_text(PROGRAM)
    project = Project(source, tmp_path / "work", emulator)
    project.init()
    return project


def rows(output: str, resource: str) -> list[str]:
    """The progress rows of one resource (``LoadBalancer web``) that carry a message."""
    return [
        line.split(")", 1)[1].strip()
        for line in output.splitlines()
        if f":{resource} " in line and "ing (" in line and line.split(")", 1)[1].strip()
    ]


def test_a_retry_and_a_readiness_wait_show_on_the_resource_s_row_under_pulumi_up(
    fresh_emulator: Emulator, tmp_path: Path
) -> None:
    project = project_of(tmp_path, fresh_emulator)
    fresh_emulator.app.faults.add(method="POST", path_prefix="/v2/vpc/networks", status=429)
    output = project("up", "--yes", "--skip-preview")

    (retry,) = set(rows(output, "Network app"))
    assert retry.startswith("network 'app': retrying POST /v2/vpc/networks in ")
    assert " s after 429 rate_limited: " in retry
    waits = set(rows(output, "LoadBalancer web"))
    assert len(waits) == 1, output
    (wait,) = waits
    # The balancer is auto-named from the resource name: web-<suffix>.
    assert wait.startswith("load balancer 'web-") and ": waiting up to 600 s " in wait, wait
    assert wait.endswith(" for it to be ready"), wait
    # Ephemeral: shown while the step runs, not kept among the diagnostics at the end.
    assert "Diagnostics:" not in output
