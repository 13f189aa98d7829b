"""The operation a ``Result`` names for each step the engine reports, under both engines: a
failed step of a replacement or a refresh still names its resource, a resource read with ``get``
is discarded (not deleted), and a protected replacement refused before any step names none."""

from __future__ import annotations

from collections.abc import Callable

import pulumi
import pytest

import altostratus as alto
from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.testing import DeploymentFailed, Result, Stack

pytestmark = pytest.mark.timeout(600)
NETWORKS = "/v2/vpc/networks"


def network() -> None:
    config = pulumi.Config()
    options = pulumi.ResourceOptions(
        protect=config.get_bool("protect") or False,
        delete_before_replace=config.get_bool("deleteFirst") or False,
    )
    alto.Network("app", cidr_v4=config.get("cidr") or "10.70.0.0/24", opts=options)


def failed(run: Callable[[], Result]) -> Result:
    with pytest.raises(DeploymentFailed) as raised:
        run()
    return raised.value.result


@pytest.mark.parametrize("delete_first", [False, True], ids=["create-first", "delete-first"])
def test_a_failed_step_of_a_replacement_names_the_replacement(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator, engine_kind: str, delete_first: bool
) -> None:
    stack = make_stack(network, engine=engine_kind)
    stack.up()
    stack.set_config("cidr", "10.71.0.0/24")
    stack.set_config("deleteFirst", "true" if delete_first else "false")
    method = "DELETE" if delete_first else "POST"
    fresh_emulator.add_fault(method=method, path_prefix=NETWORKS, status=403)

    assert failed(stack.up).operations == {"Network:app": "replace"}


def test_a_refused_protected_replacement_names_no_operation(
    make_stack: Callable[..., Stack], engine_kind: str
) -> None:
    stack = make_stack(network, engine=engine_kind, config={"protect": "true"})
    stack.up()
    stack.set_config("cidr", "10.72.0.0/24")

    result = failed(stack.up)
    assert "Network:app" not in result.operations
    assert result.failures


def test_a_failed_refresh_names_the_refresh(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator, engine_kind: str
) -> None:
    stack = make_stack(network, engine=engine_kind)
    stack.up()
    fresh_emulator.add_fault(method="GET", path_prefix=NETWORKS, status=403)

    assert failed(stack.refresh).operations == {"Network:app": "refresh"}


def test_a_resource_read_with_get_is_discarded(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator, engine_kind: str
) -> None:
    with Client(api_key=fresh_emulator.api_key, api_url=fresh_emulator.api_url) as client:
        shared = client.networks.create(label="shared", cidr_v4="10.73.0.0/24")

        def program() -> None:
            if pulumi.Config().get_bool("read") is not False:
                alto.Network.get("shared", shared.id)

        stack = make_stack(program, engine=engine_kind)
        stack.up()
        assert stack.destroy().operations == {"Network:shared": "discard"}
        stack.up()
        stack.set_config("read", "false")
        assert stack.up().operations == {"Network:shared": "discard"}
        assert client.networks.get(shared.id).label == "shared"
