"""Lookups in a program run by ``altostratus.testing``: each key, none and several matches,
secrets, the Output forms, and the program's configuration."""

from __future__ import annotations

from collections.abc import Callable

import pulumi
import pytest

import altostratus as alto
from altostratus.client import Client
from altostratus.testing import DeploymentFailed, Stack

EVENTS = ("network.created", "network.deleted")
BACKEND = {"ip": "10.80.0.10", "protocol": "TCP", "source_port": 80, "target_port": 8080}


def failure(stack: Stack) -> str:
    with pytest.raises(DeploymentFailed) as failed:
        stack.up()
    (message,) = failed.value.result.failures
    return message


def test_networks_by_id_label_and_default(make_stack: Callable[..., Stack], client: Client) -> None:
    app = client.networks.create(label="app", cidr_v4="10.80.0.0/24")
    far = client.networks.create(label="app", cidr_v4="10.81.0.0/24", region="FRA1")
    (default,) = [n for n in client.networks.list() if n.default]
    (far_default,) = [n for n in client.networks.list(region="FRA1") if n.default]

    def program() -> None:
        by_label = alto.get_network(label="app")
        by_id = alto.get_network(id=far.id, region="FRA1")
        home = alto.get_network(default=True)
        away = alto.get_network_output(default=True, region=pulumi.Output.from_input("fra1"))
        pulumi.export("by_label", [by_label.id, by_label.cidr_v4, by_label.region])
        pulumi.export("by_id", [by_id.label, by_id.cidr, by_id.region])
        pulumi.export("home", [home.id, home.default])
        pulumi.export("away", away.id)

    outputs = make_stack(program).up().output_values()
    assert outputs["by_label"] == [app.id, "10.80.0.0/24", "LON1"]
    assert outputs["by_id"] == ["app", "10.81.0.0/24", "FRA1"]
    assert outputs["home"] == [default.id, True]
    assert outputs["away"] == far_default.id


def test_no_match_and_several_matches_are_clear_errors(
    make_stack: Callable[..., Stack], client: Client
) -> None:
    first = client.networks.create(label="twin", cidr_v4="10.82.0.0/24")
    second = client.networks.create(label="twin", cidr_v4="10.83.0.0/24")

    message = failure(make_stack(lambda: alto.get_network(label="twin")))
    assert "NoSingleMatchError: 2 records match: network label='twin' in LON1" in message
    assert first.id in message and second.id in message

    message = failure(make_stack(lambda: alto.get_network(label="twin", region="FRA1")))
    assert "NoSingleMatchError: no network label='twin' in FRA1 exists" in message

    message = failure(make_stack(lambda: alto.get_firewall(id="no-such-firewall")))
    assert "no firewall id='no-such-firewall' in LON1 exists" in message

    # An id with a key that does not fit it finds nothing, rather than the wrong record.
    message = failure(make_stack(lambda: alto.get_network(id=first.id, label="other")))
    assert f"no network id='{first.id}' label='other' in LON1 exists" in message

    message = failure(make_stack(lambda: alto.get_load_balancer()))
    assert "looking up a load balancer needs its id or a key" in message


def test_firewalls_balancers_and_addresses_by_their_keys(
    make_stack: Callable[..., Stack], client: Client
) -> None:
    network = client.networks.create(label="web", cidr_v4="10.84.0.0/24")
    firewall = client.firewalls.create(name="edge", network_id=network.id)
    balancer = client.load_balancers.create(
        name="web", network_id=network.id, backends=[BACKEND], firewall_id=firewall.id
    )
    address = client.reserved_ips.create(name="web-ip")
    client.reserved_ips.assign(address.id, balancer.id)
    ip = client.reserved_ips.get(address.id).ip

    def program() -> None:
        edge = alto.get_firewall(name="edge", network_id=network.id)
        web = alto.get_load_balancer_output(name="web")
        by_ip = alto.get_reserved_ip(ip=ip)
        pulumi.export("firewall", [edge.id, edge.network_id, edge.rules_count])
        pulumi.export("balancer", [web.id, web.network_id, web.backends])
        pulumi.export("address", [by_ip.id, by_ip.name, by_ip.assigned_to_id])

    outputs = make_stack(program).up().output_values()
    assert outputs["firewall"][:2] == [firewall.id, network.id]
    assert outputs["balancer"][:2] == [balancer.id, network.id]
    assert [b["ip"] for b in outputs["balancer"][2]] == [BACKEND["ip"]]
    assert outputs["address"] == [address.id, "web-ip", balancer.id]

    message = failure(make_stack(lambda: alto.get_firewall(name="edge", network_id="elsewhere")))
    assert "no firewall name='edge' network_id='elsewhere' in LON1 exists" in message


def test_secrets_come_back_as_secrets(make_stack: Callable[..., Stack], client: Client) -> None:
    store = client.object_stores.create(name="assets", size=100)
    credential = client.object_store_credentials.create(name="ci", max_size_gb=5)
    webhook = client.webhooks.create(url="https://hooks.example.com/a", events=["*"])
    twins = [client.webhooks.create(url="https://hooks.example.com/b", events=[e]) for e in EVENTS]
    stored = {c.id: c for c in client.object_store_credentials.list()}
    owner = (client.object_stores.get(store.id).owner_info or alto.client.ObjectStoreOwner()).name

    def program() -> None:
        assets = alto.get_object_store(name="assets")
        ci = alto.get_object_store_credential(access_key_id=stored[credential.id].access_key_id)
        hook = alto.get_webhook_output(url="https://hooks.example.com/a")
        pulumi.export("bucket", assets.bucket_name)
        pulumi.export("store_key", assets.secret_access_key)
        pulumi.export("ci", [ci.id, ci.name, ci.max_size_gb])
        pulumi.export("ci_key", ci.secret_access_key)
        pulumi.export("hook", hook.id)
        pulumi.export("hook_secret", hook.apply(lambda found: found.secret))

    outputs = make_stack(program).up().outputs
    assert outputs["bucket"].value and not outputs["bucket"].secret
    assert outputs["ci"].value == [credential.id, "ci", 5] and not outputs["ci"].secret
    assert outputs["ci_key"].secret
    assert outputs["ci_key"].value == stored[credential.id].secret_access_key_id
    assert outputs["store_key"].secret and outputs["store_key"].value
    assert owner and outputs["store_key"].value in {c.secret_access_key_id for c in stored.values()}
    assert outputs["hook"].value == webhook.id and not outputs["hook"].secret
    assert outputs["hook_secret"].secret
    assert outputs["hook_secret"].value == client.webhooks.get(webhook.id).secret

    message = failure(make_stack(lambda: alto.get_webhook(url="https://hooks.example.com/b")))
    assert "2 records match: webhook url='https://hooks.example.com/b'" in message
    assert all(twin.id in message for twin in twins)


def test_quota_reads_the_accounts_limits(make_stack: Callable[..., Stack], client: Client) -> None:
    client.networks.create(label="counted", cidr_v4="10.86.0.0/24")
    quota = client.quota.get()

    def program() -> None:
        now = alto.get_quota()
        later = alto.get_quota_output()
        pulumi.export("networks", [now.network_count_limit, now.network_count_usage])
        pulumi.export("usage", later.network_count_usage)

    outputs = make_stack(program).up().output_values()
    assert outputs["networks"] == [quota.network_count_limit, quota.network_count_usage]
    assert outputs["usage"] == quota.network_count_usage


def test_lookups_read_the_programs_configuration(
    make_stack: Callable[..., Stack], client: Client
) -> None:
    (far_default,) = [n for n in client.networks.list(region="FRA1") if n.default]

    def program() -> None:
        pulumi.export("default", alto.get_network(default=True).id)

    stack = make_stack(program, config={"altostratus:region": "FRA1"})
    assert stack.up().output_values() == {"default": far_default.id}

    stack.set_config("altostratus:apiKey", "sk-wrong-0123456789abcdef", secret=True)
    assert "AuthenticationError" in failure(stack)


def test_an_unknown_input_defers_the_lookup_in_a_preview(
    make_stack: Callable[..., Stack],
) -> None:
    """In a preview a new network's id is unknown: the lookup waits for it rather than fail."""

    def program() -> None:
        network = alto.Network("app", cidr_v4="10.87.0.0/24")
        found = alto.get_network_output(id=network.id)
        pulumi.export("found", found.cidr_v4)

    stack = make_stack(program)
    assert stack.preview().operations == {"Network:app": "create"}
    assert stack.up().output_values() == {"found": "10.87.0.0/24"}
    stack.destroy()


def test_every_lookup_by_id_and_by_each_key(
    make_stack: Callable[..., Stack], client: Client
) -> None:
    network = client.networks.create(label="keys", cidr_v4="10.88.0.0/24")
    firewall = client.firewalls.create(name="keys-fw", network_id=network.id)
    balancer = client.load_balancers.create(
        name="keys-lb", network_id=network.id, backends=[BACKEND], firewall_id=firewall.id
    )
    address = client.reserved_ips.create(name="keys-ip")
    store = client.object_stores.create(name="keys-store", size=10)
    credential = client.object_store_credentials.create(name="keys-ci")
    webhook = client.webhooks.create(url="https://hooks.example.com/keys")
    expected = {
        "network": network.id,
        "firewall": firewall.id,
        "balancer": balancer.id,
        "address": address.id,
        "store": store.id,
        "credential": credential.id,
        "webhook": webhook.id,
    }

    def program() -> None:
        found = {
            "network": [
                alto.get_network(id=network.id).id,
                alto.get_network(label="keys").id,
                alto.get_network(label="keys", default=False).id,
            ],
            "firewall": [
                alto.get_firewall(id=firewall.id).id,
                alto.get_firewall(name="keys-fw").id,
                alto.get_firewall(network_id=network.id).id,
            ],
            "balancer": [
                alto.get_load_balancer(id=balancer.id).id,
                alto.get_load_balancer(name="keys-lb").id,
            ],
            "address": [
                alto.get_reserved_ip(id=address.id).id,
                alto.get_reserved_ip(name="keys-ip").id,
            ],
            "store": [
                alto.get_object_store(id=store.id).id,
                alto.get_object_store(name="keys-store").id,
            ],
            "credential": [
                alto.get_object_store_credential(id=credential.id).id,
                alto.get_object_store_credential(name="keys-ci").id,
            ],
            "webhook": [
                alto.get_webhook(id=webhook.id).id,
                alto.get_webhook(url="https://hooks.example.com/keys").id,
            ],
        }
        pulumi.export("found", found)

    found = make_stack(program).up().output_values()["found"]
    assert {kind: set(ids) for kind, ids in found.items()} == {
        kind: {id_} for kind, id_ in expected.items()
    }
