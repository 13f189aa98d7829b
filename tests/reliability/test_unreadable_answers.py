"""Creates the service made, answered with something else than the record, through the engine.

A proxy in front of the service may break a success answer on its way back: half the JSON, an
HTML page, nothing, the record wrapped in an object of its own, an id of no record. The
emulator's ``mangle`` fault makes the change and then answers so. For every kind that creates,
after that ``up`` and the next one there is exactly one record, it is the one in the state
(adopted, never created twice), and the secrets in the state are the record's own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.emulator.control.faults import MANGLES
from altostratus.providers._base import Provider
from altostratus.providers.firewall import FirewallProvider
from altostratus.providers.firewall_rule import FirewallRuleProvider
from altostratus.providers.load_balancer import LoadBalancerProvider
from altostratus.providers.network import NetworkProvider
from altostratus.providers.object_store import ObjectStoreProvider
from altostratus.providers.object_store_credential import ObjectStoreCredentialProvider
from altostratus.providers.reserved_ip import ReservedIpProvider
from altostratus.providers.webhook import WebhookProvider
from tests.support.engine import Engine, State

from .stack import BACKEND


@dataclass(frozen=True)
class Kind:
    name: str
    provider: Provider
    path: str
    """Where its create is sent (the prefix of the mangle fault)."""
    inputs: Callable[[Client], dict[str, Any]]
    """The program's inputs, after making what they depend on through the client."""
    records: Callable[[Client], list[Any]]
    secrets: Callable[[Client, Any], dict[str, str | None]]
    """The secrets the state must hold, as the service has them, by output name."""


def _network(api: Client) -> str:
    return api.networks.create(label="dependency", cidr_v4="10.61.0.0/24").id


def _firewall(api: Client) -> str:
    firewall = api.firewalls.create(
        name="dependency", network_id=_network(api), create_default_rules=False
    )
    return firewall.id


def _rules(api: Client) -> list[Any]:
    return [
        rule for firewall in api.firewalls.list() for rule in api.firewall_rules.list(firewall.id)
    ]


def _owner_secret(api: Client, store: Any) -> dict[str, str | None]:
    owner = store.owner_info.access_key_id
    [credential] = [c for c in api.object_store_credentials.list() if c.access_key_id == owner]
    return {"access_key_id": owner, "secret_access_key": credential.secret_access_key_id}


def _no_secrets(api: Client, record: Any) -> dict[str, str | None]:
    return {}


KINDS = [
    Kind(
        "network",
        NetworkProvider(),
        "/v2/vpc/networks",
        lambda api: {"label": "app", "cidr_v4": "10.60.0.0/24"},
        lambda api: [n for n in api.networks.list() if not n.default and n.label == "app"],
        _no_secrets,
    ),
    Kind(
        "firewall",
        FirewallProvider(),
        "/v2/vpc/firewalls",
        lambda api: {"network_id": _network(api), "create_default_rules": False},
        lambda api: [f for f in api.firewalls.list() if f.name != "dependency"],
        _no_secrets,
    ),
    Kind(
        "rule",
        FirewallRuleProvider(),
        "/v2/vpc/firewalls/",
        lambda api: {
            "firewall_id": _firewall(api),
            "protocol": "tcp",
            "start_port": "22",
            "cidr": ["10.0.0.0/8"],
            "label": "ssh",
        },
        _rules,
        _no_secrets,
    ),
    Kind(
        "balancer",
        LoadBalancerProvider(),
        "/v2/vpc/loadbalancers",
        lambda api: {"network_id": _network(api), "backends": [BACKEND]},
        lambda api: api.load_balancers.list(),
        _no_secrets,
    ),
    Kind(
        "address",
        ReservedIpProvider(),
        "/v2/vpc/ips",
        lambda api: {},
        lambda api: api.reserved_ips.list(),
        _no_secrets,
    ),
    Kind(
        "credential",
        ObjectStoreCredentialProvider(),
        "/v2/objectstore/credentials",
        lambda api: {"max_size_gb": 50},
        lambda api: api.object_store_credentials.list(),
        lambda api, credential: {
            "access_key_id": credential.access_key_id,
            "secret_access_key_id": credential.secret_access_key_id,
            "secret_access_key": credential.secret_access_key_id,
        },
    ),
    Kind(
        "store",
        ObjectStoreProvider(),
        "/v2/objectstores",
        lambda api: {"max_size_gb": 100},
        lambda api: api.object_stores.list(),
        _owner_secret,
    ),
    Kind(
        "webhook",
        WebhookProvider(),
        "/v2/webhooks",
        lambda api: {"url": "https://hooks.example.com/infra", "events": ["network.created"]},
        lambda api: api.webhooks.list(),
        lambda api, webhook: {"secret": webhook.secret},
    ),
]


def creates_sent(emulator: Emulator, kind: Kind, since: int) -> int:
    return sum(
        1
        for entry in emulator.requests()[since:]
        if entry["method"] == "POST"
        and entry["path"].startswith(kind.path)
        and not entry["path"].endswith("/actions")
    )


@pytest.mark.parametrize("how", MANGLES)
@pytest.mark.parametrize("kind", KINDS, ids=[kind.name for kind in KINDS])
def test_a_create_answered_unreadably_leaves_one_adopted_resource(
    client: Client, provider_engine: Engine, fresh_emulator: Emulator, kind: Kind, how: str
) -> None:
    inputs = kind.inputs(client)
    since = len(fresh_emulator.requests())
    fresh_emulator.add_fault(method="POST", path_prefix=kind.path, mangle=how)

    first = provider_engine.up(kind.provider, kind.name, inputs, None)
    second = provider_engine.up(kind.provider, kind.name, inputs, first.state)

    assert (first.operation, second.operation) == ("create", "same")
    [record] = kind.records(client)
    assert first.state.id == second.state.id == record.id
    assert creates_sent(fresh_emulator, kind, since) == 1
    assert_secrets(second.state, kind.secrets(client, record))


def assert_secrets(state: State, expected: dict[str, str | None]) -> None:
    for name, value in expected.items():
        assert value, name
        assert state.outputs[name] == value, name
