"""Every client call against the emulator, through real HTTP."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from altostratus.client import Client, models
from altostratus.client.errors import (
    AuthenticationError,
    BadRequestError,
    ConflictError,
    NotFoundError,
    OutcomeUnknownError,
    QuotaExceededError,
    ServerError,
)
from altostratus.emulator import Emulator

BACKEND: dict[str, Any] = {
    "ip": "10.1.0.5",
    "protocol": "TCP",
    "source_port": 80,
    "target_port": 8080,
}


@pytest.fixture
def retrying_client(fresh_emulator: Emulator) -> Iterator[Client]:
    """A client of the fresh emulator that retries twice, without sleeping between."""
    with Client(fresh_emulator.api_key, fresh_emulator.api_url, max_retries=2) as client:
        client._http.sleep = lambda seconds: None
        yield client


@pytest.fixture
def network_model(client: Client) -> models.Network:
    return client.networks.get(client.networks.create(label="app", cidr_v4="10.1.0.0/24").id)


def test_networks(client: Client) -> None:
    created = client.networks.create(
        label="app", cidr_v4="10.1.0.0/24", nameservers_v4=["1.1.1.1", "8.8.8.8"]
    )
    network = client.networks.get(created.id)
    assert (network.label, network.cidr, network.default) == ("app", "10.1.0.0/24", False)
    assert network.nameservers_v4 == ["1.1.1.1", "8.8.8.8"]
    assert created.id in {n.id for n in client.networks.list()}
    assert client.networks.update(created.id, label="app2").label == "app2"
    assert client.networks.get(created.id).label == "app2"
    client.networks.delete(created.id)
    with pytest.raises(NotFoundError) as caught:
        client.networks.get(created.id)
    assert caught.value.code == "database_network_not_found"


def test_the_default_network_cannot_be_deleted(client: Client) -> None:
    default = next(n for n in client.networks.list() if n.default)
    with pytest.raises(ConflictError):
        client.networks.delete(default.id)


def test_firewalls_and_rules(client: Client, network_model: models.Network) -> None:
    created = client.firewalls.create(
        name="web", network_id=network_model.id, create_default_rules=False
    )
    assert client.firewalls.get(created.id).rules == []
    assert client.firewalls.update(created.id, name="web2").name == "web2"
    assert [f.name for f in client.firewalls.list() if f.id == created.id] == ["web2"]
    with pytest.raises(ConflictError):
        client.firewalls.create(name="web2", network_id=network_model.id)

    rule = client.firewall_rules.create(
        created.id, protocol="tcp", start_port=443, cidr=["10.0.0.0/8"], label="https"
    )
    assert (rule.firewall_id, rule.start_port, rule.cidr) == (created.id, "443", ["10.0.0.0/8"])
    client.firewall_rules.update(created.id, rule.id, start_port=8000, end_port=8080)
    read = client.firewall_rules.get(created.id, rule.id)
    assert (read.start_port, read.end_port, read.ports) == ("8000", "8080", "8000-8080")
    assert [r.id for r in client.firewall_rules.list(created.id)] == [rule.id]
    client.firewall_rules.delete(created.id, rule.id)
    with pytest.raises(NotFoundError) as caught:
        client.firewall_rules.get(created.id, rule.id)
    assert caught.value.code == "database_firewall_rule_not_found"

    client.firewalls.delete(created.id)
    with pytest.raises(NotFoundError):
        client.firewalls.get(created.id)


def test_load_balancers_and_reserved_ips(
    client: Client, network_model: models.Network, fresh_emulator: Emulator
) -> None:
    lb = client.load_balancers.create(
        name="front", network_id=network_model.id, backends=[models.LoadBalancerBackend(**BACKEND)]
    )
    assert (lb.state, lb.public_ip, lb.service_name) == ("", "", None)
    fresh_emulator.advance_clock(60)
    ready = client.load_balancers.get(lb.id)
    assert ready.state == "available" and ready.public_ip
    updated = client.load_balancers.update(lb.id, backends=[BACKEND | {"target_port": 9090}])
    assert [b.target_port for b in updated.backends] == [9090]
    assert lb.id in {b.id for b in client.load_balancers.list()}

    ip = client.reserved_ips.create(name="edge")
    assert ip.ip is None
    address = client.reserved_ips.get(ip.id).ip
    assert address
    assert client.reserved_ips.update(ip.id, name="edge2").name == "edge2"
    client.reserved_ips.assign(ip.id, lb.id)
    assigned = client.reserved_ips.get(ip.id).assigned_to
    assert assigned is not None and (assigned.id, assigned.type) == (lb.id, "loadbalancer")
    assert client.load_balancers.get(lb.id).public_ip == address
    client.reserved_ips.unassign(ip.id)
    client.reserved_ips.unassign(ip.id)
    assert client.reserved_ips.get(ip.id).assigned_to is None
    assert [i.ip for i in client.reserved_ips.list()] == [address]
    client.reserved_ips.assign(ip.id, lb.id)
    (listed,) = client.reserved_ips.list()
    assert listed.assigned_to is not None and listed.assigned_to.id == lb.id

    client.reserved_ips.delete(ip.id)
    client.load_balancers.delete(lb.id)
    assert client.reserved_ips.list() == []
    with pytest.raises(NotFoundError):
        client.load_balancers.get(lb.id)


def test_an_ip_reserved_without_a_name_is_named_by_its_address(client: Client) -> None:
    made = client.reserved_ips.create()
    reserved = client.reserved_ips.get(made.id)
    assert made.name == reserved.name == reserved.ip


def test_a_load_balancer_is_created_on_a_firewall(
    client: Client, network_model: models.Network
) -> None:
    firewall = client.firewalls.create(name="edge", network_id=network_model.id)
    lb = client.load_balancers.create(
        name="front", network_id=network_model.id, backends=[BACKEND], firewall_id=firewall.id
    )
    assert client.load_balancers.get(lb.id).firewall_id == firewall.id
    with pytest.raises(NotFoundError):
        client.load_balancers.create(
            name="back", network_id=network_model.id, backends=[BACKEND], firewall_id="nope"
        )


def test_object_stores_and_credentials(client: Client, fresh_emulator: Emulator) -> None:
    credential = client.object_store_credentials.create(name="owner", max_size_gb=50)
    assert credential.secret_access_key_id and len(credential.access_key_id) == 20
    store = client.object_stores.create(
        name="media", size=10, access_key_id=credential.access_key_id
    )
    assert store.status == "creating"
    fresh_emulator.advance_clock(60)
    ready = client.object_stores.get(store.id)
    assert ready.status == "ready"
    assert ready.objectstore_endpoint and ready.objectstore_endpoint.startswith(
        f"{fresh_emulator.s3_url}/media-"
    )
    assert client.object_stores.update(store.id, max_size_gb=20).max_size_gb == 20
    assert [s.id for s in client.object_stores.list()] == [store.id]
    with pytest.raises(ConflictError):
        client.object_store_credentials.delete(credential.id)

    assert client.object_store_credentials.update(credential.id, max_size_gb=60).max_size_gb == 60
    assert client.object_store_credentials.get(credential.id).name == "owner"
    assert credential.id in {c.id for c in client.object_store_credentials.list()}
    client.object_stores.delete(store.id)
    client.object_store_credentials.delete(credential.id)
    with pytest.raises(NotFoundError):
        client.object_store_credentials.get(credential.id)


def test_webhooks(client: Client) -> None:
    created = client.webhooks.create(url="http://127.0.0.1:9/hook", events=["network.created"])
    webhook = client.webhooks.get(created.id)
    assert (webhook.events, webhook.disabled, len(webhook.secret)) == (
        ["network.created"],
        False,
        40,
    )
    updated = client.webhooks.update(created.id, secret="s" * 40, events=["*"])
    assert (updated.secret, updated.events) == ("s" * 40, ["*"])
    client.webhooks.test(created.id)
    assert [w.id for w in client.webhooks.list()] == [created.id]
    client.webhooks.delete(created.id)
    with pytest.raises(NotFoundError) as caught:
        client.webhooks.get(created.id)
    assert caught.value.code == "database_webhook_not_found"
    with pytest.raises(BadRequestError):
        client.webhooks.create(url="http://127.0.0.1:9/hook", events=["no.such_event"])


def test_quota_counts_and_limits(client: Client, fresh_emulator: Emulator) -> None:
    client.networks.create(label="one")
    quota = client.quota.get()
    assert quota.network_count_usage == 1
    fresh_emulator.set_quota(network_count=1)
    with pytest.raises(QuotaExceededError) as caught:
        client.networks.create(label="two")
    assert caught.value.code == "quota_limit_reached"
    assert client.quota.get().network_count_usage == 1


def test_a_wrong_key_is_an_authentication_error(fresh_emulator: Emulator) -> None:
    with (
        Client("not-the-key", fresh_emulator.api_url) as client,
        pytest.raises(AuthenticationError) as caught,
    ):
        client.networks.list()
    assert "not-the-key" not in str(caught.value)


def test_transient_failures_of_reads_are_retried(
    retrying_client: Client, fresh_emulator: Emulator
) -> None:
    fault = {"method": "GET", "path_prefix": "/v2/vpc/networks", "status": 503}
    fresh_emulator.add_fault(**fault, count=2)
    assert retrying_client.networks.list()
    fresh_emulator.add_fault(**fault, count=3)
    with pytest.raises(ServerError):
        retrying_client.networks.list()


def test_a_create_failing_after_it_applied_is_outcome_unknown(
    client: Client, fresh_emulator: Emulator
) -> None:
    fresh_emulator.add_fault(method="POST", path_prefix="/v2/vpc/ips", status=503, after_apply=True)
    fresh_emulator.clear_requests()
    with pytest.raises(OutcomeUnknownError) as caught:
        client.reserved_ips.create(name="edge")
    assert caught.value.status == 503
    assert [ip.name for ip in client.reserved_ips.list()] == ["edge"]
    posts = [r for r in fresh_emulator.requests() if r["method"] == "POST"]
    assert len(posts) == 1


def test_a_dropped_create_is_outcome_unknown(client: Client, fresh_emulator: Emulator) -> None:
    fresh_emulator.add_fault(method="POST", path_prefix="/v2/vpc/ips", drop_connection=True)
    with pytest.raises(OutcomeUnknownError) as caught:
        client.reserved_ips.create(name="edge")
    assert caught.value.status is None
