"""The program runs as the Python language host runs it: in the event loop, through
``run_in_stack``, its outputs serialized by the SDK, its registrations completed before its error.

Where the ``pulumi`` CLI is installed, the same programs run on the real engine too.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pulumi
import pytest

import altostratus as alto
from altostratus.emulator import Emulator
from altostratus.testing import DeploymentFailed, OutputValue, Stack
from tests.support.account import leftovers


def raising_after_a_network() -> None:
    alto.Network("app", cidr_v4="10.44.0.0/24")
    raise ValueError("the program broke after declaring its network")


def test_a_program_that_raises_still_creates_what_it_declared_first(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator, engine_kind: str
) -> None:
    stack = make_stack(raising_after_a_network, engine=engine_kind)

    with pytest.raises(DeploymentFailed, match="the program broke") as failed:
        stack.up()
    assert failed.value.result.operations == {"Network:app": "create"}
    assert leftovers(fresh_emulator) == {"networks": 1}

    with pytest.raises(DeploymentFailed, match="the program broke") as again:
        stack.up()
    assert again.value.result.operations == {"Network:app": "same"}
    assert leftovers(fresh_emulator) == {"networks": 1}
    stack.destroy()
    assert leftovers(fresh_emulator) == {}


def exporting() -> None:
    network = alto.Network("app", label="web", cidr_v4="10.45.0.0/24")
    pulumi.export("network", network)
    pulumi.export("nothing", None)
    pulumi.export("nested", {"token": pulumi.Output.secret("t0k3n"), "size": 3})
    pulumi.export("token", pulumi.Output.secret("t0k3n"))
    pulumi.export("organization", pulumi.get_organization())
    pulumi.export("loop_running", asyncio.get_running_loop().is_running())

    async def main() -> pulumi.Inputs:
        await asyncio.sleep(0)
        return {"label": network.label, "size": 4}

    pulumi.run(main)


def test_stack_outputs_are_what_the_sdk_serializes_for_the_engine(
    make_stack: Callable[..., Stack], engine_kind: str
) -> None:
    result = make_stack(exporting, engine=engine_kind).up()

    network = result.resources["Network:app"]
    exported = result.outputs["network"]
    assert not exported.secret
    assert exported.value["urn"] == network.urn
    assert exported.value["id"] == network.id
    assert exported.value["label"] == "web"
    assert "nothing" not in result.outputs
    nested = OutputValue({"size": 3, "token": "t0k3n"}, secret=False, secret_paths=(("token",),))
    assert result.outputs["nested"] == nested
    assert result.outputs["token"] == OutputValue("t0k3n", secret=True)
    assert result.outputs["organization"].value == "organization"
    assert result.outputs["loop_running"].value is True
    # ``pulumi.run``'s entry point runs after the module and adds to its exports.
    assert result.outputs["label"].value == "web"
    assert result.outputs["size"] == OutputValue(4)
    assert isinstance(result.outputs["size"].value, int)
