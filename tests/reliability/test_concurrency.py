"""Many calls at once leave the service's state consistent: counts, quota usage, no lost update.

One client shared by 16 threads for the API; four concurrent calls into one provider process
(the engine's own parallelism) for the providers.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

from altostratus.client import Client
from altostratus.client.errors import QuotaExceededError
from altostratus.emulator import Emulator
from altostratus.providers.firewall_rule import FirewallRuleProvider
from altostratus.providers.load_balancer import LoadBalancerProvider
from altostratus.providers.object_store import ObjectStoreProvider
from tests.support.engine import Engine, State

from .stack import BACKEND, inventory

THREADS = 16
KINDS = ("network", "firewall", "rule", "balancer", "address", "credential", "store", "webhook")
NOTHING = dict.fromkeys(KINDS, 0)
SHARED = {"network": 1, "firewall": 1}


def run_all(calls: list[Callable[[], Any]], workers: int = THREADS) -> list[Any]:
    """Run the calls at once; every exception is returned, not raised."""

    def guarded(call: Callable[[], Any]) -> Any:
        try:
            return call()
        except Exception as error:
            return error

    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(guarded, calls))


def errors(results: list[Any]) -> list[Exception]:
    return [result for result in results if isinstance(result, Exception)]


def test_fifty_concurrent_creates_and_deletes_through_one_client(
    client: Client, fresh_emulator: Emulator
) -> None:
    network = client.networks.create(label="shared", cidr_v4="10.95.0.0/24")
    parent = client.firewalls.create(
        name="parent", network_id=network.id, create_default_rules=False
    )
    old_rules = [
        client.firewall_rules.create(parent.id, protocol="tcp", start_port=str(1000 + n))
        for n in range(10)
    ]
    old_firewalls = [
        client.firewalls.create(name=f"old-{n}", network_id=network.id, create_default_rules=False)
        for n in range(5)
    ]
    old_webhooks = [client.webhooks.create(url=f"https://h.example/old/{n}") for n in range(5)]
    old_credentials = [client.object_store_credentials.create(name=f"old-{n}") for n in range(5)]

    def new_rule(port: int) -> Callable[[], Any]:
        return lambda: client.firewall_rules.create(parent.id, protocol="udp", start_port=str(port))

    def new_firewall(n: int) -> Callable[[], Any]:
        return lambda: client.firewalls.create(
            name=f"new-{n}", network_id=network.id, create_default_rules=False
        )

    def new_webhook(n: int) -> Callable[[], Any]:
        return lambda: client.webhooks.create(url=f"https://h.example/new/{n}")

    def new_credential(n: int) -> Callable[[], Any]:
        return lambda: client.object_store_credentials.create(name=f"new-{n}")

    creates = [
        *(new_rule(port) for port in range(2000, 2020)),
        *(new_firewall(n) for n in range(10)),
        *(new_webhook(n) for n in range(10)),
        *(new_credential(n) for n in range(10)),
    ]
    deletes: list[Callable[[], Any]] = [
        *(partial(client.firewall_rules.delete, parent.id, r.id) for r in old_rules),
        *(partial(client.firewalls.delete, f.id) for f in old_firewalls),
        *(partial(client.webhooks.delete, w.id) for w in old_webhooks),
        *(partial(client.object_store_credentials.delete, c.id) for c in old_credentials),
    ]
    calls = creates + deletes
    random.Random(7).shuffle(calls)
    assert len(creates) == 50
    assert errors(run_all(calls)) == []

    counts = inventory(client)
    assert counts == {
        **NOTHING,
        **SHARED,
        "firewall": 11,
        "rule": 20,
        "credential": 10,
        "webhook": 10,
    }
    rules = client.firewall_rules.list(parent.id)
    assert sorted(int(r.start_port or 0) for r in rules) == list(range(2000, 2020))
    assert client.firewalls.get(parent.id).rules_count == 20
    quota = client.quota.get()
    assert quota.security_group_usage == counts["firewall"]
    assert quota.security_group_rule_usage == counts["rule"]
    assert quota.network_count_usage == counts["network"]
    keys = [c.access_key_id for c in client.object_store_credentials.list()]
    assert len(set(keys)) == len(keys) == 10
    print(f"\nafter 50 creates and 25 deletes at once: {counts}")


def test_concurrent_creates_never_pass_the_quota(client: Client, fresh_emulator: Emulator) -> None:
    fresh_emulator.set_quota(public_ip_address=10)
    results = run_all([partial(client.reserved_ips.create, name=f"ip-{n}") for n in range(50)])
    refused = [r for r in results if isinstance(r, QuotaExceededError)]
    assert len(refused) == 40 and len(errors(results)) == 40, errors(results)
    live = client.reserved_ips.list()
    assert len(live) == client.quota.get().public_ip_address_usage == 10
    assert len({ip.ip for ip in live}) == 10, "two reserved IPs share an address"


def test_concurrent_updates_of_one_firewall_lose_none(
    client: Client, fresh_emulator: Emulator
) -> None:
    network = client.networks.create(label="shared", cidr_v4="10.96.0.0/24")
    parent = client.firewalls.create(
        name="parent", network_id=network.id, create_default_rules=False
    )
    rules = [
        client.firewall_rules.create(parent.id, protocol="tcp", start_port=str(3000 + n))
        for n in range(25)
    ]
    relabels: list[Callable[[], Any]] = [
        partial(client.firewall_rules.update, parent.id, r.id, label=f"label-{r.start_port}")
        for r in rules
    ]
    renames: list[Callable[[], Any]] = [
        partial(client.firewalls.update, parent.id, name=f"parent-{n}") for n in range(25)
    ]
    assert errors(run_all(relabels + renames)) == []
    labels = {r.start_port: r.label for r in client.firewall_rules.list(parent.id)}
    assert labels == {str(3000 + n): f"label-{3000 + n}" for n in range(25)}
    assert client.firewalls.get(parent.id).name in {f"parent-{n}" for n in range(25)}


def test_four_concurrent_provider_calls_leave_a_consistent_state(
    client: Client, provider_engine: Engine, fresh_emulator: Emulator
) -> None:
    network = client.networks.create(label="shared", cidr_v4="10.97.0.0/24")
    parent = client.firewalls.create(
        name="parent", network_id=network.id, create_default_rules=False
    )
    rule, balancer, store = FirewallRuleProvider(), LoadBalancerProvider(), ObjectStoreProvider()
    program: list[tuple[Any, str, dict[str, Any]]] = [
        (rule, "rule-a", {"firewall_id": parent.id, "protocol": "tcp", "start_port": "80"}),
        (rule, "rule-b", {"firewall_id": parent.id, "protocol": "tcp", "start_port": "443"}),
        (balancer, "balancer", {"network_id": network.id, "backends": [BACKEND]}),
        (store, "store", {"max_size_gb": 5}),
    ]
    created = run_all(
        [partial(provider_engine.up, p, n, i, None) for p, n, i in program], workers=4
    )
    assert errors(created) == []
    states: list[State] = [outcome.state for outcome in created]
    # The balancer comes with a firewall of its own, opening its backend's port.
    owned = {"rule": 3, "firewall": 2, "balancer": 1, "credential": 1, "store": 1}
    assert inventory(client) == {**NOTHING, **SHARED, **owned}
    assert client.firewalls.get(parent.id).rules_count == 2
    assert client.quota.get().public_ip_address_usage == 1

    changes: list[dict[str, Any]] = [
        {"start_port": "8080"},
        {"start_port": "8443"},
        {"algorithm": "least_connections"},
        {"max_size_gb": 9},
    ]
    updated = run_all(
        [
            partial(provider_engine.up, p, n, {**i, **c}, s)
            for (p, n, i), s, c in zip(program, states, changes, strict=True)
        ],
        workers=4,
    )
    assert errors(updated) == []
    states = [outcome.state for outcome in updated]
    ports = sorted(r.start_port or "" for r in client.firewall_rules.list(parent.id))
    assert ports == ["8080", "8443"]
    assert client.load_balancers.get(states[2].id).algorithm == "least_connections"
    assert client.object_stores.get(states[3].id).max_size_gb == 9

    gone = run_all(
        [
            partial(provider_engine.destroy, p, n, s)
            for (p, n, _), s in zip(program, states, strict=True)
        ],
        workers=4,
    )
    assert gone == [None] * 4
    assert inventory(client) == {**NOTHING, **SHARED}
    assert client.quota.get().public_ip_address_usage == 0
