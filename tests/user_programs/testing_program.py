"""A user's test of a program, offline against the emulator, with ``altostratus.testing``."""

from typing import Any

import pulumi

import altostratus as alto
from altostratus.emulator import Emulator
from altostratus.testing import DeploymentFailed, Result, Stack


def program() -> None:
    network = alto.Network("app", label="app", cidr_v4="10.50.0.0/24")
    pulumi.export("cidr", network.cidr_v4)


def test_the_program_makes_one_network(emulator: Emulator) -> None:
    stack = Stack(program, emulator=emulator, config={"altostratus:region": "LON1"})
    try:
        created: Result = stack.up()
        outputs: dict[str, Any] = created.output_values()
        assert outputs["cidr"] == "10.50.0.0/24"
        assert created.operations == {"Network:app": "create"}
    except DeploymentFailed as failed:
        raise AssertionError(str(failed)) from failed
    finally:
        stack.destroy()
        stack.close()
