"""What the engine carries in the state: renames, reads, imports, and the stored configuration."""

from __future__ import annotations

from collections.abc import Callable

import pulumi
import pytest

import altostratus as alto
from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.testing import DeploymentFailed, Stack
from tests.support.account import leftovers


def credential_and_network() -> None:
    renamed = pulumi.Config().get_bool("renamed")
    suffix = "-renamed" if renamed else ""
    aliases = [pulumi.Alias(name="ci"), pulumi.Alias(name="app")] if renamed else None
    alto.ObjectStoreCredential(f"ci{suffix}", opts=pulumi.ResourceOptions(aliases=aliases))
    alto.Network(f"app{suffix}", opts=pulumi.ResourceOptions(aliases=aliases))


def test_a_rename_with_aliases_carries_the_state(make_stack: Callable[..., Stack]) -> None:
    stack = make_stack(credential_and_network)
    first = stack.up()
    stack.set_config("renamed", "true")

    assert stack.preview().changed() == {}
    renamed = stack.up()
    assert renamed.operations == {
        "ObjectStoreCredential:ci-renamed": "same",
        "Network:app-renamed": "same",
    }
    before, after = first.resources, renamed.resources
    credential = after["ObjectStoreCredential:ci-renamed"]
    assert credential.outputs["name"] == before["ObjectStoreCredential:ci"].outputs["name"]
    assert (
        credential.outputs["secret_access_key"]
        == (before["ObjectStoreCredential:ci"].outputs["secret_access_key"])
    )
    assert after["Network:app-renamed"].outputs["label"] == "app"
    assert sorted(r.name for r in stack.state.resources) == ["app-renamed", "ci-renamed"]
    stack.destroy()


def test_import_fails_as_the_engine_fails_for_dynamic_resources(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator
) -> None:
    with Client(api_key=fresh_emulator.api_key, api_url=fresh_emulator.api_url) as client:
        existing = client.networks.create(label="existing", cidr_v4="10.60.0.0/24")

    def program() -> None:
        alto.Network(
            "adopted",
            label="existing",
            cidr_v4="10.60.0.0/24",
            opts=pulumi.ResourceOptions(import_=existing.id),
        )

    stack = make_stack(program)
    with pytest.raises(DeploymentFailed) as failed:
        stack.up()
    (message,) = failed.value.result.failures
    assert "Network::adopted: import failed" in message
    assert "KeyError" in message and "__provider" in message
    assert stack.state.resources == []


def test_get_reads_an_existing_resource_and_destroy_leaves_it(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator
) -> None:
    with Client(api_key=fresh_emulator.api_key, api_url=fresh_emulator.api_url) as client:
        existing = client.networks.create(label="shared", cidr_v4="10.61.0.0/24")

    def program() -> None:
        shared = alto.Network("shared", opts=pulumi.ResourceOptions(id=existing.id))
        alto.Firewall("edge", network_id=shared.id, create_default_rules=False)
        pulumi.export("cidr", shared.cidr)

    stack = make_stack(program)
    result = stack.up()
    assert result.operations == {"Network:shared": "read", "Firewall:edge": "create"}
    assert result.output_values() == {"cidr": "10.61.0.0/24"}
    assert stack.up().changed() == {}
    stack.destroy()
    assert leftovers(fresh_emulator) == {"networks": 1}


def test_a_missing_id_fails_the_read(make_stack: Callable[..., Stack]) -> None:
    def program() -> None:
        alto.Network("ghost", opts=pulumi.ResourceOptions(id="no-such-network"))

    with pytest.raises(DeploymentFailed) as failed:
        make_stack(program).up()
    assert "resource 'no-such-network' does not exist" in str(failed.value)


def one_network() -> None:
    alto.Network("app", cidr_v4="10.62.0.0/24")


def test_refresh_and_destroy_use_the_configuration_stored_by_the_last_up(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator
) -> None:
    stack = make_stack(one_network)
    stack.up()
    right_key = fresh_emulator.api_key
    stack.set_config("altostratus:apiKey", "sk-rotated-0123456789abcdef", secret=True)

    # Until an up, refresh keeps using the key stored with the stack: it still works.
    assert stack.refresh().operations == {"Network:app": "same"}
    # An up with no change stores the new key without calling the API...
    assert stack.up().changed() == {}
    # ...and from then on refresh uses it, and says what to do about the 401.
    with pytest.raises(DeploymentFailed) as failed:
        stack.refresh()
    (message,) = failed.value.result.failures
    assert "401" in message and "stored with the stack may be stale" in message
    assert "run pulumi up with the current key first" in message

    stack.set_config("altostratus:apiKey", right_key, secret=True)
    stack.up()
    stack.set_config("altostratus:apiKey", "sk-rotated-0123456789abcdef", secret=True)
    stack.destroy()  # with the stored, right key
    assert leftovers(fresh_emulator) == {}


def test_declaring_a_resource_the_stack_only_read_creates_one_in_its_place(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator
) -> None:
    with Client(api_key=fresh_emulator.api_key, api_url=fresh_emulator.api_url) as client:
        existing = client.networks.create(label="shared", cidr_v4="10.64.0.0/24")

    def program() -> None:
        if pulumi.Config().get_bool("own"):
            alto.Network("shared", label="own", cidr_v4="10.64.0.0/24")
        else:
            alto.Network("shared", opts=pulumi.ResourceOptions(id=existing.id))

    stack = make_stack(program)
    assert stack.up().operations == {"Network:shared": "read"}
    stack.set_config("own", "true")
    assert stack.preview().changed() == {"Network:shared": "replace"}
    owned = stack.up().resources["Network:shared"]

    # The one it read is left as it was; the stack now owns a new one.
    assert owned.id != existing.id and owned.outputs["label"] == "own"
    with Client(api_key=fresh_emulator.api_key, api_url=fresh_emulator.api_url) as client:
        kept = client.networks.get(existing.id)
    assert (kept.label, kept.cidr) == ("shared", "10.64.0.0/24")
    stack.destroy()
    assert leftovers(fresh_emulator) == {"networks": 1}


def test_reading_another_resource_in_place_of_an_owned_one_deletes_the_owned_one(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator
) -> None:
    with Client(api_key=fresh_emulator.api_key, api_url=fresh_emulator.api_url) as client:
        existing = client.networks.create(label="shared", cidr_v4="10.66.0.0/24")

    def program() -> None:
        if pulumi.Config().get_bool("read"):
            alto.Network("app", opts=pulumi.ResourceOptions(id=existing.id))
        else:
            alto.Network("app", cidr_v4="10.67.0.0/24")

    stack = make_stack(program)
    owned = stack.up().resources["Network:app"]
    stack.set_config("read", "true")
    assert stack.up().operations == {"Network:app": "read"}

    # ``GenerateReadSteps``: the owned network is relinquished by deleting it.
    assert [r.id for r in stack.state.resources] == [existing.id]
    with Client(api_key=fresh_emulator.api_key, api_url=fresh_emulator.api_url) as client:
        assert [n.id for n in client.networks.list() if not n.default] == [existing.id]
    assert owned.id != existing.id
    stack.destroy()
    assert leftovers(fresh_emulator) == {"networks": 1}


def test_a_preview_does_not_read_an_id_it_does_not_know_yet(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator
) -> None:
    def program() -> None:
        made = alto.Network("made", cidr_v4="10.68.0.0/24")
        alto.Network("again", opts=pulumi.ResourceOptions(id=made.id))

    stack = make_stack(program)
    assert stack.preview().operations == {"Network:made": "create", "Network:again": "read"}
    result = stack.up()
    assert result.resources["Network:again"].outputs["cidr"] == "10.68.0.0/24"
    stack.destroy()
    assert leftovers(fresh_emulator) == {}


class Tier(pulumi.ComponentResource):
    """A component holding a component holding a network."""

    def __init__(self, name: str, opts: pulumi.ResourceOptions | None = None) -> None:
        super().__init__("acme:index:Tier", name, None, opts)
        inner = pulumi.ComponentResource(
            "acme:index:Zone", f"{name}-zone", None, pulumi.ResourceOptions(parent=self)
        )
        alto.Network(
            f"{name}-net", cidr_v4="10.69.0.0/24", opts=pulumi.ResourceOptions(parent=inner)
        )


def test_urns_are_the_engines(make_stack: Callable[..., Stack]) -> None:
    dynamic = "pulumi-python:dynamic/altostratus:Network"

    def program() -> None:
        Tier("web")
        if pulumi.Config().get_bool("renamed"):
            # An alias as a URN copied from the state of a real stack.
            old = f"urn:pulumi:test::test::{dynamic}::app"
            alto.Network("main", opts=pulumi.ResourceOptions(aliases=[old]))
        else:
            alto.Network("app")

    stack = make_stack(program)
    stack.up()
    assert {res.urn for res in stack.state.resources} == {
        "urn:pulumi:test::test::acme:index:Tier$acme:index:Zone::web-zone",
        f"urn:pulumi:test::test::acme:index:Tier$acme:index:Zone${dynamic}::web-net",
        "urn:pulumi:test::test::acme:index:Tier::web",
        f"urn:pulumi:test::test::{dynamic}::app",
    }
    stack.set_config("renamed", "true")
    assert stack.up().changed() == {}
    stack.destroy()


def test_two_resources_of_one_urn_fail_the_deployment(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator
) -> None:
    def program() -> None:
        alto.Network("app", cidr_v4="10.72.0.0/24")
        alto.Network("app", cidr_v4="10.73.0.0/24")

    stack = make_stack(program)
    with pytest.raises(DeploymentFailed) as failed:
        stack.up()
    urn = "urn:pulumi:test::test::pulumi-python:dynamic/altostratus:Network::app"
    assert failed.value.result.failures == [
        f"{urn}: register failed: Duplicate resource URN '{urn}'; try giving it a unique name"
    ]
    assert len(stack.state.resources) <= 1
    stack.destroy()
    assert leftovers(fresh_emulator) == {}


def test_a_resource_moved_under_a_parent_keeps_both_of_its_urns_apart(
    altostratus_stack: Callable[..., Stack],
) -> None:
    class Tier(pulumi.ComponentResource):
        def __init__(self, name: str) -> None:
            super().__init__("test:index:Tier", name)
            alto.Network("app", cidr_v4="10.70.0.0/24", opts=pulumi.ResourceOptions(parent=self))

    stack = altostratus_stack(lambda: alto.Network("app", cidr_v4="10.70.0.0/24"))
    stack.up()
    stack.program = lambda: Tier("web")
    moved = stack.up()
    # Without an alias the engine deletes the network under its old URN and creates one under
    # the new; the result shows both.
    assert moved.operations == {
        "Tier:web": "create",
        "Tier$Network:app": "create",
        "Network:app": "delete",
    }
    assert moved.resources["Tier$Network:app"].urn != moved.resources["Network:app"].urn


@pytest.mark.timeout(600)
def test_a_get_of_a_record_gone_fails_in_one_line_and_refresh_drops_it(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator, engine_kind: str
) -> None:
    with Client(api_key=fresh_emulator.api_key, api_url=fresh_emulator.api_url) as client:
        network = client.networks.create(label="shared", cidr_v4="10.62.0.0/24")

        def program() -> None:
            pulumi.export("cidr", alto.Network.get("shared", network.id).cidr_v4)

        stack = make_stack(program, engine=engine_kind)
        assert stack.up().operations == {"Network:shared": "read"}
        client.networks.delete(network.id)

        with pytest.raises(DeploymentFailed) as failed:
            stack.up()
    (error,) = failed.value.result.errors
    assert error.op == "read"
    assert (
        error.message.strip()
        .splitlines()[-1]
        .endswith(
            f"could not read network '{network.id}': it does not exist in LON1 (the configured "
            "region: get looks there when given no region)"
        )
    )
    assert stack.refresh().operations == {"Network:shared": "delete"}


def test_a_get_of_a_record_being_deleted_fails_in_one_line(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator
) -> None:
    settings = fresh_emulator.state.settings
    settings.delete_seconds = 3600
    try:
        with Client(api_key=fresh_emulator.api_key, api_url=fresh_emulator.api_url) as client:
            network = client.networks.create(label="leaving", cidr_v4="10.63.0.0/24")
            client.networks.delete(network.id)

        def program() -> None:
            alto.Network.get("leaving", network.id)

        with pytest.raises(DeploymentFailed) as failed:
            make_stack(program).up()
    finally:
        settings.delete_seconds = 0.0
    (error,) = failed.value.result.errors
    assert error.message.endswith(f"could not read network '{network.id}': it is being deleted")


@pytest.mark.timeout(600)
def test_nulls_inside_outputs_are_kept_as_the_state_keeps_them(
    make_stack: Callable[..., Stack], engine_kind: str
) -> None:
    def program() -> None:
        alto.Firewall("edge", network_id=alto.Network("app").id)

    result = make_stack(program, engine=engine_kind).up()
    rules = result.resources["Firewall:edge"].outputs["rules"]
    assert rules and all("firewall_id" in rule and rule["firewall_id"] is None for rule in rules)
