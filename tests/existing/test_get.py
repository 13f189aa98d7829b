"""``Resource.get``: an existing resource read into a program, through the real provider process."""

from __future__ import annotations

from collections.abc import Callable

import pulumi
import pytest

import altostratus as alto
from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.testing import DeploymentFailed, Stack
from tests.support.account import leftovers

BACKEND = {"ip": "10.70.0.10", "protocol": "TCP", "source_port": 80, "target_port": 8080}


def made_elsewhere(api: Client) -> dict[str, str]:
    """One of each of the eight resources, made outside the stack; their ids."""
    network = api.networks.create(label="shared", cidr_v4="10.70.0.0/24")
    firewall = api.firewalls.create(
        name="shared-fw", network_id=network.id, create_default_rules=False
    )
    rule = api.firewall_rules.create(firewall.id, protocol="tcp", start_port=22, label="ssh")
    balancer = api.load_balancers.create(
        name="shared-lb", network_id=network.id, backends=[BACKEND], firewall_id=firewall.id
    )
    address = api.reserved_ips.create(name="shared-ip", region="FRA1")
    store = api.object_stores.create(name="shared-assets", size=100)
    credential = api.object_store_credentials.create(name="shared-ci", max_size_gb=5)
    webhook = api.webhooks.create(url="https://hooks.example.com/shared", events=["*"])
    return {
        "network": network.id,
        "firewall": firewall.id,
        "rule": rule.id,
        "balancer": balancer.id,
        "address": address.id,
        "store": store.id,
        "credential": credential.id,
        "webhook": webhook.id,
    }


def test_get_reads_each_resource_without_managing_it(
    make_stack: Callable[..., Stack], client: Client, fresh_emulator: Emulator
) -> None:
    ids = made_elsewhere(client)
    before = leftovers(fresh_emulator)

    def program() -> None:
        network = alto.Network.get("shared", ids["network"])
        firewall = alto.Firewall.get("shared", ids["firewall"])
        rule = alto.FirewallRule.get("ssh", ids["rule"], firewall_id=firewall.id)
        balancer = alto.LoadBalancer.get("shared", ids["balancer"])
        address = alto.ReservedIp.get("shared", ids["address"], region="FRA1")
        store = alto.ObjectStore.get("shared", ids["store"])
        credential = alto.ObjectStoreCredential.get("shared", ids["credential"])
        webhook = alto.Webhook.get("shared", ids["webhook"])
        pulumi.export("cidr", network.cidr_v4)
        pulumi.export("firewall", firewall.name)
        pulumi.export("ports", rule.ports)
        pulumi.export("backends", balancer.backends)
        pulumi.export("address_region", address.region)
        pulumi.export("bucket", store.bucket_name)
        pulumi.export("store_secret", store.secret_access_key)
        pulumi.export("credential_secret", credential.secret_access_key)
        pulumi.export("webhook_secret", webhook.secret)
        # What this stack makes may depend on what it reads.
        alto.FirewallRule("web", firewall_id=firewall.id, protocol="tcp", start_port="443")

    stack = make_stack(program)
    result = stack.up()
    reads = {key: op for key, op in result.operations.items() if key != "FirewallRule:web"}
    assert set(reads.values()) == {"read"} and len(reads) == 8
    assert result.operations["FirewallRule:web"] == "create"
    outputs = result.outputs
    assert outputs["cidr"].value == "10.70.0.0/24"
    assert outputs["firewall"].value == "shared-fw"
    assert outputs["ports"].value == "22"
    assert [b["ip"] for b in outputs["backends"].value] == ["10.70.0.10"]
    assert outputs["address_region"].value == "FRA1"
    endpoint = client.object_stores.get(ids["store"]).objectstore_endpoint
    assert endpoint and endpoint.endswith("/" + outputs["bucket"].value)
    secrets = ("store_secret", "credential_secret", "webhook_secret")
    for name in secrets:
        assert outputs[name].secret and outputs[name].value, name
    assert outputs["webhook_secret"].value == client.webhooks.get(ids["webhook"]).secret
    credential = client.object_store_credentials.get(ids["credential"])
    assert outputs["credential_secret"].value == credential.secret_access_key_id
    assert "secret_access_key" in result.resources["ObjectStoreCredential:shared"].secret_outputs
    assert result.resources["Network:shared"].id == ids["network"]
    assert result.resources["FirewallRule:ssh"].id == ids["rule"]

    again = stack.up()
    assert again.changed() == {}
    stack.destroy()
    # Only what the stack made is gone; what it read is left alone.
    assert leftovers(fresh_emulator) == before
    assert {rule.label for rule in client.firewall_rules.list(ids["firewall"])} == {"ssh"}


def test_get_finds_nothing_with_an_unknown_id(make_stack: Callable[..., Stack]) -> None:
    def program() -> None:
        alto.Firewall.get("ghost", "no-such-firewall")

    with pytest.raises(DeploymentFailed) as failed:
        make_stack(program).up()
    assert (
        "could not read firewall 'no-such-firewall': it does not exist in LON1 (the configured "
        "region: get looks there when given no region)"
    ) in str(failed.value)


def test_get_of_a_rule_needs_its_firewall() -> None:
    with pytest.raises(ValueError, match="firewall_id"):
        alto.FirewallRule.get("ssh", "r1")


def test_a_webhook_takes_no_region() -> None:
    with pytest.raises(ValueError, match="account"):
        alto.Webhook.get("events", "w1", region="LON1")
