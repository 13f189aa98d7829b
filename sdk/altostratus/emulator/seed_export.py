"""The whole state as a seed (see ``seed``): what ``GET /_emulator/state`` answers.

Each record is written as the create call that makes it again, from the state's public records:
its fixed ``id``, its ``region`` and its create fields; a firewall with its rules (and
``create_default_rules: false``), an object store with its owner's key and its objects (text, or
``{base64: ...}`` for bytes that are not UTF-8), a reserved IP with the balancer it is assigned
to (``assign_to_id``). The default networks are left out: each account gets its own again. Not
kept: webhooks' delivery counts, the clock.
"""

from __future__ import annotations

import base64
import dataclasses
from typing import TYPE_CHECKING, Any

from altostratus.emulator.s3 import store as s3_objects

if TYPE_CHECKING:
    from altostratus.emulator.state import State


def export(state: State) -> dict[str, Any]:
    with state.lock:
        accounts = []
        for account in state.accounts.by_id.values():
            entry: dict[str, Any] = {
                "name": account.name,
                "api_key": account.api_key,
                "quota": dict(account.limits),
            }
            for kind, records in _resources(state, account.id).items():
                if records:
                    entry[kind] = records
            accounts.append(entry)
    return {"accounts": accounts}


def _resources(state: State, account_id: str) -> dict[str, list[dict[str, Any]]]:
    def own(store: Any) -> list[Any]:
        records = store.records.values()
        return [r for r in records if r.account_id == account_id and r.id not in store.removals]

    owners = {c.id: c.access_key_id for c in state.credentials.records.values()}
    return {
        "networks": [_network(n) for n in own(state.networks) if not n.default],
        "firewalls": [_firewall(f) for f in own(state.firewalls)],
        "object_store_credentials": [_credential(c) for c in own(state.credentials)],
        "object_stores": [_store(s, owners) for s in own(state.object_stores)],
        "load_balancers": [_balancer(b) for b in own(state.load_balancers)],
        "reserved_ips": [
            _given(r, name=r.name, assign_to_id=_live(state.load_balancers, r.assigned_to_id))
            for r in own(state.reserved_ips)
        ],
        "webhooks": [
            _given(w, url=w.url, events=list(w.events), secret=w.secret)
            for w in own(state.webhooks)
        ],
    }


def _live(store: Any, record_id: str | None) -> str | None:
    """``record_id`` while it names a record of ``store`` that is not being removed."""
    if record_id is None or record_id not in store.records or record_id in store.removals:
        return None
    return record_id


def _given(record: Any, **fields: Any) -> dict[str, Any]:
    """The entry: the id, the region, and the fields that have a value."""
    body = {"id": record.id}
    if getattr(record, "region", None):
        body["region"] = record.region
    body.update({k: v for k, v in fields.items() if v is not None and v != ""})
    return body


def _network(network: Any) -> dict[str, Any]:
    return _given(
        network,
        label=network.label,
        cidr_v4=str(network.cidr),
        ipv4_enabled=network.ipv4_enabled,
        nameservers_v4=[str(n) for n in network.nameservers] or None,
    )


def _firewall(firewall: Any) -> dict[str, Any]:
    rules = [
        {
            k: (list(v) if isinstance(v, tuple) else v)
            for k, v in dataclasses.asdict(rule).items()
            if k not in ("id", "firewall_id") and v is not None and v != ""
        }
        for rule in firewall.rules
    ]
    return _given(
        firewall,
        name=firewall.name,
        network_id=firewall.network_id,
        create_default_rules=False,
        rules=rules,
    )


def _credential(credential: Any) -> dict[str, Any]:
    return _given(
        credential,
        name=credential.name,
        access_key_id=credential.access_key_id,
        secret_access_key_id=credential.secret_access_key_id,
        max_size_gb=credential.max_size_gb,
    )


def _store(store: Any, owners: dict[str, str]) -> dict[str, Any]:
    objects: dict[str, Any] = {}
    for name, data in sorted(s3_objects.current_objects(store.bucket).items()):
        try:
            objects[name] = data.decode()
        except UnicodeDecodeError:
            objects[name] = {"base64": base64.b64encode(data).decode("ascii")}
    return _given(
        store,
        name=store.name,
        size=store.max_size_gb,
        access_key_id=owners.get(store.owner_id),
        objects=objects or None,
    )


def _balancer(balancer: Any) -> dict[str, Any]:
    names = (
        "name",
        "network_id",
        "algorithm",
        "external_traffic_policy",
        "session_affinity",
        "session_affinity_config_timeout",
        "enable_proxy_protocol",
        "max_concurrent_requests",
        "firewall_id",
    )
    fields = {name: getattr(balancer, name) for name in names}
    backends = [dict(b) for b in balancer.backends]
    return _given(balancer, **fields, backends=backends)
