"""Adoption through the real provider process: an existing record brought under a stack by its
id, only when asked, only when it matches, never deleted or duplicated on the way."""

from __future__ import annotations

from collections.abc import Callable

import pulumi
import pytest

import altostratus as alto
from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.testing import DeploymentFailed, Stack


def failure(stack: Stack) -> str:
    with pytest.raises(DeploymentFailed) as failed:
        stack.up()
    return "\n".join(failed.value.result.failures)


def own_networks(api: Client) -> list[str]:
    return sorted(n.id for n in api.networks.list() if not n.default)


def test_a_network_is_adopted_then_managed_as_any_other(
    make_stack: Callable[..., Stack], client: Client
) -> None:
    existing = client.networks.create(label="legacy", cidr_v4="10.90.0.0/24")
    label = "legacy"

    def program() -> None:
        args = alto.NetworkArgs(label=label, cidr_v4="10.90.0.0/24")
        if adopting:
            network = alto.Network.adopt("app", existing.id, args)
        else:
            network = alto.Network("app", args)
        pulumi.export("gateway", network.gateway_ipv4)

    adopting = True
    stack = make_stack(program)
    adopted = stack.up()
    assert adopted.operations == {"Network:app": "create"}
    assert adopted.resources["Network:app"].id == existing.id
    assert own_networks(client) == [existing.id]  # nothing was created
    assert adopted.output_values() == {"gateway": client.networks.get(existing.id).gateway_ipv4}
    assert stack.up().changed() == {}

    label = "renamed"
    assert stack.up().changed() == {"Network:app": "update"}
    assert client.networks.get(existing.id).label == "renamed"

    adopting = False  # declared the usual way once adopted: nothing changes
    assert stack.up().changed() == {}
    stack.destroy()
    assert own_networks(client) == []  # the stack manages it now


def test_nothing_is_adopted_unless_asked(make_stack: Callable[..., Stack], client: Client) -> None:
    network = client.networks.create(label="shared", cidr_v4="10.91.0.0/24")
    existing = client.firewalls.create(name="edge", network_id=network.id)

    def program() -> None:
        alto.Firewall("edge", name="edge", network_id=network.id)

    message = failure(make_stack(program))
    assert "409 database_firewall_duplicate_name" in message
    assert [f.id for f in client.firewalls.list()] == [existing.id]


def test_a_record_that_differs_from_the_program_is_not_adopted(
    make_stack: Callable[..., Stack], client: Client
) -> None:
    network = client.networks.create(label="shared", cidr_v4="10.92.0.0/24")
    firewall = client.firewalls.create(name="edge", network_id=network.id)
    balancer = client.load_balancers.create(
        name="web",
        network_id=network.id,
        backends=[{"ip": "10.92.0.5", "protocol": "TCP", "source_port": 80, "target_port": 80}],
    )
    address = client.reserved_ips.create(name="web-ip")
    client.reserved_ips.assign(address.id, balancer.id)
    before = client.firewalls.get(firewall.id)

    def wrong_firewall() -> None:
        alto.Firewall.adopt("edge", firewall.id, alto.FirewallArgs(name="gate", network_id="n-2"))

    message = failure(make_stack(wrong_firewall))
    assert f"could not adopt firewall '{firewall.id}'" in message
    assert "name is 'edge', the program gives 'gate'" in message
    assert f"network_id is '{network.id}', the program gives 'n-2'" in message
    assert client.firewalls.get(firewall.id) == before
    # Nothing made: the firewall, and the one the balancer got of its own.
    assert {f.id for f in client.firewalls.list()} == {firewall.id, balancer.firewall_id}

    # Leaving out the assignment would unassign the address on the next up: not adopted.
    def unassigned() -> None:
        alto.ReservedIp.adopt("ip", address.id, alto.ReservedIpArgs(name="web-ip"))

    message = failure(make_stack(unassigned))
    assert f"assign_to_id is '{balancer.id}', the program gives None" in message

    def elsewhere() -> None:
        alto.ReservedIp.adopt("ip", address.id, alto.ReservedIpArgs(name="web-ip", region="FRA1"))

    message = failure(make_stack(elsewhere))
    assert f"could not adopt the reserved IP {address.id}: not found in FRA1" in message


def test_adoption_needs_the_name(make_stack: Callable[..., Stack], client: Client) -> None:
    store = client.object_stores.create(name="assets-legacy", size=100)

    def program() -> None:
        alto.ObjectStore.adopt("assets", store.id, alto.ObjectStoreArgs(max_size_gb=100))

    with pytest.raises(DeploymentFailed) as failed:
        make_stack(program).up()
    (check,) = failed.value.check_failures
    assert check.property == "name"
    assert "name is required when adopting: give the object store's current name" in (check.reason)


def test_an_adopted_credential_keeps_its_keys_secret(
    make_stack: Callable[..., Stack], client: Client
) -> None:
    made = client.object_store_credentials.create(name="ci", max_size_gb=5)
    keys = client.object_store_credentials.get(made.id)

    def program() -> None:
        credential = alto.ObjectStoreCredential.adopt(
            "ci", made.id, alto.ObjectStoreCredentialArgs(name="ci", max_size_gb=5)
        )
        pulumi.export("key", credential.secret_access_key)

    result = make_stack(program).up()
    assert result.outputs["key"].secret
    assert result.outputs["key"].value == keys.secret_access_key_id
    state = result.resources["ObjectStoreCredential:ci"]
    assert {"access_key_id", "secret_access_key"} <= state.secret_outputs
    assert len(client.object_store_credentials.list()) == 1


def test_a_replacing_change_is_refused_while_adopt_stays(
    make_stack: Callable[..., Stack], client: Client
) -> None:
    existing = client.networks.create(label="legacy", cidr_v4="10.93.0.0/24")
    cidr = "10.93.0.0/24"

    def program() -> None:
        alto.Network.adopt("app", existing.id, alto.NetworkArgs(label="legacy", cidr_v4=cidr))

    stack = make_stack(program)
    stack.up()
    cidr = "10.94.0.0/24"
    message = failure(stack)
    assert "declared with adopt, and changing cidr_v4 replaces it" in message
    assert own_networks(client) == [existing.id]
    assert client.networks.get(existing.id).cidr == "10.93.0.0/24"


def test_each_resource_is_adopted_unchanged_then_managed(
    make_stack: Callable[..., Stack], client: Client, fresh_emulator: Emulator
) -> None:
    """The six kinds the tests above adopt only partly: each taken over, then destroyed."""
    network = client.networks.create(label="estate", cidr_v4="10.97.0.0/24")
    firewall = client.firewalls.create(name="estate-fw", network_id=network.id)
    rule = client.firewall_rules.create(
        firewall.id, protocol="tcp", start_port=8443, cidr=["10.0.0.0/8"], label="estate"
    )
    backend = {"ip": "10.97.0.5", "protocol": "TCP", "source_port": 443, "target_port": 8443}
    balancer = client.load_balancers.create(
        name="estate-lb", network_id=network.id, backends=[backend]
    )
    address = client.reserved_ips.create(name="estate-ip")
    client.reserved_ips.assign(address.id, balancer.id)
    store = client.object_stores.create(name="estate-store", size=40)
    # Ready, as a store found in the estate is: a store still creating cannot be counted, so
    # its destroy below would be refused (force_destroy is not set).
    fresh_emulator.advance_clock(5.0)
    webhook = client.webhooks.create(url="https://hooks.example.com/estate", events=["ip.updated"])
    secret = client.webhooks.get(webhook.id).secret

    def program() -> None:
        alto.Firewall.adopt(
            "fw", firewall.id, alto.FirewallArgs(name="estate-fw", network_id=network.id)
        )
        alto.FirewallRule.adopt(
            "https",
            rule.id,
            alto.FirewallRuleArgs(
                firewall_id=firewall.id,
                protocol="tcp",
                start_port="8443",
                cidr=["10.0.0.0/8"],
                label="estate",
            ),
        )
        lb = alto.LoadBalancer.adopt(
            "lb",
            balancer.id,
            alto.LoadBalancerArgs(name="estate-lb", network_id=network.id, backends=[backend]),
        )
        alto.ReservedIp.adopt(
            "ip", address.id, alto.ReservedIpArgs(name="estate-ip", assign_to_id=lb.id)
        )
        alto.ObjectStore.adopt(
            "store", store.id, alto.ObjectStoreArgs(name="estate-store", max_size_gb=40)
        )
        hook = alto.Webhook.adopt(
            "hook",
            webhook.id,
            alto.WebhookArgs(url="https://hooks.example.com/estate", events=["ip.updated"]),
        )
        pulumi.export("secret", hook.secret)

    stack = make_stack(program)
    adopted = stack.up()
    ids = {key: state.id for key, state in adopted.resources.items()}
    assert ids == {
        "Firewall:fw": firewall.id,
        "FirewallRule:https": rule.id,
        "LoadBalancer:lb": balancer.id,
        "ReservedIp:ip": address.id,
        "ObjectStore:store": store.id,
        "Webhook:hook": webhook.id,
    }
    assert set(adopted.operations.values()) == {"create"}
    assert adopted.outputs["secret"].secret and adopted.outputs["secret"].value == secret
    # Nothing was made on the way, and nothing changes on the next up.
    assert len(client.firewall_rules.list(firewall.id)) == 4  # the three default rules and https
    assert [b.id for b in client.load_balancers.list()] == [balancer.id]
    assert len(client.object_store_credentials.list()) == 1  # the store's owner
    assert stack.up().changed() == {}

    stack.destroy()
    assert client.firewalls.list() == [] and client.load_balancers.list() == []
    assert client.reserved_ips.list() == [] and client.object_stores.list() == []
    assert client.webhooks.list() == []
