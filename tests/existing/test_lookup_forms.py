"""Lookups beyond their keys: every ``_output`` form on Inputs, the regions, every lookup's
none-found error, several firewalls of a network, and the service's answer shapes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pulumi
import pytest

import altostratus as alto
from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.testing import DeploymentFailed, Stack
from tests.support.answer_shapes import shaping_proxy

BACKEND = {"ip": "10.95.0.10", "protocol": "TCP", "source_port": 80, "target_port": 8080}
REFERENCE = "organization/platform/prod"


def made_elsewhere(api: Client) -> dict[str, Any]:
    network = api.networks.create(label="forms", cidr_v4="10.95.0.0/24")
    firewall = api.firewalls.create(name="forms-fw", network_id=network.id)
    balancer = api.load_balancers.create(
        name="forms-lb", network_id=network.id, backends=[BACKEND], firewall_id=firewall.id
    )
    address = api.reserved_ips.create(name="forms-ip")
    store = api.object_stores.create(name="forms-store", size=20)
    credential = api.object_store_credentials.create(name="forms-ci", max_size_gb=3)
    webhook = api.webhooks.create(url="https://hooks.example.com/forms", events=["*"])
    keys = api.object_store_credentials.get(credential.id)
    return {
        "network": network.id,
        "firewall": firewall.id,
        "balancer": balancer.id,
        "address": address.id,
        "store": store.id,
        "credential": credential.id,
        "credential_secret": keys.secret_access_key_id,
        "webhook": webhook.id,
        "webhook_secret": api.webhooks.get(webhook.id).secret,
    }


def test_every_output_form_takes_inputs_and_keeps_secrets(
    make_stack: Callable[..., Stack], client: Client
) -> None:
    made = made_elsewhere(client)
    names = {
        "network": "forms",
        "firewall": "forms-fw",
        "balancer": "forms-lb",
        "address": "forms-ip",
        "store": "forms-store",
        "credential": "forms-ci",
        "webhook": "https://hooks.example.com/forms",
    }

    def program() -> None:
        # Keys that are Outputs: another stack's values, known only once the program runs.
        given = pulumi.StackReference(REFERENCE)

        def key(name: str) -> pulumi.Output[str]:
            return given.require_output(name).apply(str)

        region = pulumi.Output.from_input("lon1")
        network = alto.get_network_output(label=key("network"), region=region)
        firewall = alto.get_firewall_output(name=key("firewall"), network_id=network.id)
        balancer = alto.get_load_balancer_output(name=key("balancer"), region=region)
        address = alto.get_reserved_ip_output(name=key("address"))
        store = alto.get_object_store_output(name=key("store"))
        credential = alto.get_object_store_credential_output(name=key("credential"))
        webhook = alto.get_webhook_output(url=key("webhook"))
        regions = alto.get_regions_output(country=pulumi.Output.from_input("de"))
        quota = alto.get_quota_output()
        pulumi.export(
            "ids",
            {
                "network": network.id,
                "firewall": firewall.id,
                "balancer": balancer.id,
                "address": address.id,
                "store": store.id,
                "credential": credential.id,
                "webhook": webhook.id,
            },
        )
        pulumi.export("credential_secret", credential.secret_access_key)
        pulumi.export("store_secret", store.apply(lambda found: found.secret_access_key))
        pulumi.export("webhook_secret", webhook.apply(lambda found: found.secret))
        pulumi.export("regions", regions.codes)
        pulumi.export("firewalls", quota.security_group_usage)

    stack = make_stack(program, references={REFERENCE: names})
    outputs = stack.up().outputs
    assert outputs["ids"].value == {kind: made[kind] for kind in names}
    assert not outputs["ids"].secret
    for secret in ("credential_secret", "store_secret", "webhook_secret"):
        assert outputs[secret].secret, secret
    assert outputs["credential_secret"].value == made["credential_secret"]
    assert outputs["webhook_secret"].value == made["webhook_secret"]
    assert outputs["store_secret"].value
    assert outputs["regions"].value == ["FRA1"]
    assert outputs["firewalls"].value == 1


def test_regions_all_by_country_and_the_default(
    make_stack: Callable[..., Stack], client: Client
) -> None:
    served = client.regions.list()

    def program() -> None:
        every = alto.get_regions()
        british = alto.get_regions(country="gb")
        nowhere = alto.get_regions(country="ZZ")
        pulumi.export("every", [every.codes, every.default_region])
        pulumi.export("names", [region.name for region in every.regions])
        pulumi.export("british", [british.codes, british.default_region])
        pulumi.export("nowhere", [nowhere.codes, nowhere.default_region])

    outputs = make_stack(program).up().output_values()
    assert outputs["every"] == [[r.code for r in served], "LON1"]
    assert outputs["every"][0] == ["LON1", "FRA1", "NYC1", "PHX1"]
    assert outputs["names"] == [r.name for r in served]
    assert outputs["british"] == [["LON1"], "LON1"]
    assert outputs["nowhere"] == [[], None]


LOOKUPS: dict[str, Callable[..., Any]] = {
    "network": alto.get_network,
    "firewall": alto.get_firewall,
    "load balancer": alto.get_load_balancer,
    "reserved IP": alto.get_reserved_ip,
    "object store": alto.get_object_store,
    "object store credential": alto.get_object_store_credential,
    "webhook": alto.get_webhook,
}
KEYS = {
    "network": {"label": "ghost"},
    "firewall": {"name": "ghost"},
    "load balancer": {"name": "ghost"},
    "reserved IP": {"ip": "203.0.113.250"},
    "object store": {"name": "ghost"},
    "object store credential": {"access_key_id": "AKIAGHOST0000000000"},
    "webhook": {"url": "https://hooks.example.com/ghost"},
}


def test_each_lookup_names_what_it_did_not_find(make_stack: Callable[..., Stack]) -> None:
    def program() -> None:
        messages = {}
        for kind, lookup in LOOKUPS.items():
            for keys in ({"id": "ghost-id"}, KEYS[kind]):
                try:
                    lookup(**keys)
                except alto.NoSingleMatchError as error:
                    messages[f"{kind} {sorted(keys)[0]}"] = str(error)
        pulumi.export("messages", messages)

    messages = make_stack(program).up().output_values()["messages"]
    assert len(messages) == 2 * len(LOOKUPS)
    for kind in LOOKUPS:
        where = "" if kind == "webhook" else " in LON1"
        assert messages[f"{kind} id"] == f"no {kind} id='ghost-id'{where} exists"
        ((key, value),) = KEYS[kind].items()
        assert messages[f"{kind} {key}"] == f"no {kind} {key}={value!r}{where} exists"


def test_several_firewalls_of_a_network_are_not_guessed(
    make_stack: Callable[..., Stack], client: Client
) -> None:
    network = client.networks.create(label="two-walls", cidr_v4="10.96.0.0/24")
    first = client.firewalls.create(name="wall-a", network_id=network.id)
    second = client.firewalls.create(name="wall-b", network_id=network.id)

    def program() -> None:
        alto.get_firewall(network_id=network.id)

    with pytest.raises(DeploymentFailed) as failed:
        make_stack(program).up()
    (message,) = failed.value.result.failures
    assert f"2 records match: firewall network_id='{network.id}' in LON1" in message
    assert first.id in message and second.id in message


def test_lookups_read_the_services_answer_shapes(
    make_stack: Callable[..., Stack], client: Client, fresh_emulator: Emulator
) -> None:
    """Firewalls without ``label`` or ``account_id``, networks without ``gateway_ipv4``, a store
    whose size is ``max_size``, a quota with other counters: each lookup reads them."""
    made = made_elsewhere(client)

    def program() -> None:
        network = alto.get_network(label="forms")
        firewall = alto.get_firewall(name="forms-fw")
        balancer = alto.get_load_balancer(name="forms-lb")
        store = alto.get_object_store(name="forms-store")
        quota = alto.get_quota()
        pulumi.export("network", [network.id, network.cidr_v4, network.gateway_ipv4])
        pulumi.export("firewall", [firewall.id, firewall.label, firewall.account_id])
        pulumi.export("balancer", [balancer.id, balancer.created_at])
        pulumi.export("store", [store.id, store.max_size_gb])
        pulumi.export("quota", [quota.network_count_limit, quota.clusters_current_count])

    with shaping_proxy(fresh_emulator.api_url, "official") as proxy:
        stack = make_stack(
            program,
            emulator=None,
            config={"altostratus:apiUrl": proxy.url},
            secrets={"altostratus:apiKey": fresh_emulator.api_key},
        )
        outputs = stack.up().output_values()
    assert outputs == {
        "network": [made["network"], "10.95.0.0/24", None],
        "firewall": [made["firewall"], None, None],
        "balancer": [made["balancer"], None],
        "store": [made["store"], 20],
        "quota": [10, None],
    }


def test_webhooks_sharing_a_url_are_told_apart_by_their_events(
    make_stack: Callable[..., Stack], client: Client
) -> None:
    url = "https://hooks.example.com/shared"
    networks = client.webhooks.create(url=url, events=["network.created", "network.deleted"])
    addresses = client.webhooks.create(url=url, events=["ip.created"])

    def program() -> None:
        by_events = alto.get_webhook(url=url, events=["network.deleted", "network.created"])
        by_output = alto.get_webhook_output(
            url=url, events=[pulumi.Output.from_input("ip.created")]
        )
        by_id = alto.get_webhook(id=networks.id, events=["network.created", "network.deleted"])
        pulumi.export("found", [by_events.id, by_output.id, by_id.id])
        try:
            alto.get_webhook(id=networks.id, events=["ip.created"])
        except alto.NoSingleMatchError as error:
            pulumi.export("mismatch", str(error))

    outputs = make_stack(program).up().output_values()
    assert outputs["found"] == [networks.id, addresses.id, networks.id]
    assert outputs["mismatch"] == f"no webhook id='{networks.id}' events=['ip.created'] exists"
