"""Creates, lookups and checks cost the same however many records an account holds.

Cost is counted, not timed: the Python lines an operation runs, traced, with a few records of
each kind in the account and then with a thousand. A check that looked at every record (a name
taken, an access key in use, a bucket's store, a quota of rules, what holds a network) ran a
line per record.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import FrameType
from typing import Any

import pytest
from werkzeug.test import Client as WsgiClient

from altostratus.emulator import Emulator
from altostratus.emulator.reading.bodies import (
    CredentialCreate,
    FirewallCreate,
    LoadBalancerCreate,
    NetworkCreate,
    ObjectStoreCreate,
    ReservedIpCreate,
)
from altostratus.emulator.state import State
from altostratus.emulator.state.base import Effects

SMALL, LARGE = 10, 1000
#: Reserved IPs and load balancers draw on the emulator's 762 public addresses.
LARGE_PUBLIC = 700
#: Lines an operation may run beyond its count with few records: none per record, but random
#: keys and secrets take a varying number of draws.
SLACK = 200


def _lines(action: Callable[[], Any]) -> int:
    count = 0

    def trace(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal count
        if event == "line":
            count += 1
        return trace

    sys.settrace(trace)
    try:
        action()
    finally:
        sys.settrace(None)
    return count


class Account:
    """An emulator's default account with every quota raised, and a WSGI client for it."""

    def __init__(self) -> None:
        self.emulator = Emulator()
        self.state: State = self.emulator.state
        self.id = self.state.default_account.id
        self.state.default_account.limits.update(
            dict.fromkeys(self.state.default_account.limits, 10**6)
        )
        self.client = WsgiClient(self.emulator.app)
        self.headers = {"Authorization": f"Bearer {self.emulator.api_key}"}
        self.network = self.state.networks.all(self.id, "LON1")[0].id

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        answer = self.client.post(path, json=body, headers=self.headers)
        assert answer.status_code == 200, answer.get_data(as_text=True)
        return dict(answer.json or {})

    def make(self, store: Any, fields: Any) -> Any:
        """A record made straight in ``store`` from its create's typed ``fields``."""
        with self.state.lock:
            return store.create(self.id, "LON1", Effects(), fields)


def _firewalls(account: Account, count: int) -> None:
    for number in range(count):
        account.make(
            account.state.firewalls, FirewallCreate(name=f"fw-{number}", network_id=account.network)
        )


def _credentials(account: Account, count: int) -> None:
    for number in range(count):
        account.make(account.state.credentials, CredentialCreate(name=f"cred-{number}"))


def _stores(account: Account, count: int) -> None:
    owner = account.make(account.state.credentials, CredentialCreate(name="owner"))
    for number in range(count):
        account.make(
            account.state.object_stores,
            ObjectStoreCreate(name=f"store-{number}", access_key_id=owner.access_key_id),
        )


def _balancers(account: Account, count: int) -> None:
    network = account.network
    for number in range(min(count, LARGE_PUBLIC)):
        if number % 200 == 199:  # a network's hosts run out past 250
            network = account.make(account.state.networks, NetworkCreate(label=f"net-{number}")).id
        account.make(
            account.state.load_balancers,
            LoadBalancerCreate(name=f"lb-{number}", network_id=network, backends=()),
        )


def _reserved_ips(account: Account, count: int) -> None:
    for number in range(min(count, LARGE_PUBLIC)):
        account.make(account.state.reserved_ips, ReservedIpCreate(name=f"ip-{number}"))


def _create_firewall(account: Account, tag: str) -> None:
    account.post("/v2/vpc/firewalls", {"name": f"fresh-{tag}", "network_id": account.network})


def _create_rule(account: Account, tag: str) -> None:
    made = account.make(
        account.state.firewalls, FirewallCreate(name=f"held-{tag}", network_id=account.network)
    )
    account.post(f"/v2/vpc/firewalls/{made.id}/rules", {"protocol": "tcp", "start_port": "22"})


def _create_credential(account: Account, tag: str) -> None:
    account.post("/v2/objectstore/credentials", {"name": f"fresh-{tag}", "region": "LON1"})


def _create_store(account: Account, tag: str) -> None:
    account.post("/v2/objectstores", {"name": f"fresh-{tag}", "region": "LON1"})


def _s3_lookups(account: Account, tag: str) -> None:
    made = account.post("/v2/objectstores", {"name": f"fresh-{tag}", "region": "LON1"})
    store = account.state.object_stores.records[made["id"]]
    key = account.state.credentials.records[store.owner_id].access_key_id
    assert account.state.s3_key(key) is not None
    assert account.state.s3_bucket(store.bucket) is not None
    assert len(account.state.s3_buckets_of(key)) == 1


def _create_balancer(account: Account, tag: str) -> None:
    network = account.make(account.state.networks, NetworkCreate(label="spare")).id
    account.post(
        "/v2/vpc/loadbalancers", {"name": f"fresh-{tag}", "network_id": network, "backends": []}
    )


def _network_delete_and_firewall_get(account: Account, tag: str) -> None:
    network = account.make(account.state.networks, NetworkCreate(label="spare")).id
    firewall = account.make(
        account.state.firewalls, FirewallCreate(name=f"held-{tag}", network_id=account.network)
    )
    assert (
        account.client.get(f"/v2/vpc/firewalls/{firewall.id}", headers=account.headers).status_code
        == 200
    )
    assert (
        account.client.delete(f"/v2/vpc/networks/{network}", headers=account.headers).status_code
        == 200
    )


def _create_reserved_ip(account: Account, tag: str) -> None:
    account.post("/v2/vpc/ips", {"name": f"fresh-{tag}", "region": "LON1"})


OPERATIONS: dict[str, tuple[Callable[[Account, int], None], Callable[[Account, str], None]]] = {
    "a firewall create among firewalls": (_firewalls, _create_firewall),
    "a rule create among firewalls": (_firewalls, _create_rule),
    "a credential create among credentials": (_credentials, _create_credential),
    "a store create among stores": (_stores, _create_store),
    "S3 finding a key and a bucket among stores": (_stores, _s3_lookups),
    "a balancer create among balancers": (_balancers, _create_balancer),
    "a network delete and a firewall read among balancers": (
        _balancers,
        _network_delete_and_firewall_get,
    ),
    "a firewall read and a network delete among firewalls": (
        _firewalls,
        _network_delete_and_firewall_get,
    ),
    "a reserved IP create among reserved IPs": (_reserved_ips, _create_reserved_ip),
}


@pytest.mark.parametrize("operation", OPERATIONS)
def test_an_operation_costs_the_same_among_a_thousand_records(operation: str) -> None:
    fill, act = OPERATIONS[operation]
    counted = []
    for size in (SMALL, LARGE):
        account = Account()
        fill(account, size)
        act(account, "a")  # the first of a kind warms caches (routes, regexes) up
        counted.append(_lines(lambda account=account: act(account, "b")))  # type: ignore[misc]
    few, many = counted
    assert many <= few + SLACK, f"{few} lines among {SMALL}, {many} among {LARGE}"


def test_the_indexes_follow_renames_new_keys_and_assignments() -> None:
    account = Account()
    first = account.make(
        account.state.firewalls, FirewallCreate(name="a", network_id=account.network)
    )
    account.client.put(f"/v2/vpc/firewalls/{first.id}", json={"name": "b"}, headers=account.headers)
    assert first.name == "b"
    account.post("/v2/vpc/firewalls", {"name": "a", "network_id": account.network})
    taken = account.client.post(
        "/v2/vpc/firewalls",
        json={"name": "b", "network_id": account.network},
        headers=account.headers,
    )
    assert taken.status_code == 409
    credential = account.post("/v2/objectstore/credentials", {"name": "c", "region": "LON1"})
    new_key = "A" * 20
    changed = account.client.patch(
        f"/v2/objectstore/credentials/{credential['id']}",
        json={"access_key_id": new_key},
        headers=account.headers,
    )
    assert changed.status_code == 200, changed.get_data(as_text=True)
    assert account.state.s3_key(credential["access_key_id"]) is None
    assert account.state.s3_key(new_key) is not None
    reserved = account.post("/v2/vpc/ips", {"name": "ip", "region": "LON1"})
    balancer = account.make(
        account.state.load_balancers,
        LoadBalancerCreate(name="lb", network_id=account.network, backends=()),
    )
    assigned = account.client.post(
        f"/v2/vpc/ips/{reserved['id']}/actions",
        json={"action": "assign", "assign_to_id": balancer.id},
        headers=account.headers,
    )
    assert assigned.status_code == 200, assigned.get_data(as_text=True)
    assert account.state.reserved_ips.assigned_to(balancer.id).id == reserved["id"]  # type: ignore[union-attr]
