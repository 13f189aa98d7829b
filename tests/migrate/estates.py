"""The estates the fixtures describe, made in the emulator with the client, and what the account
holds before and after a migration.

Each fixture is a state as its tool writes it, with the values the service assigns (ids, a
network's internal name, addresses, keys, bucket URLs) written as ``{{key}}``. ``seed_*`` makes
the same records in the emulator, as the tool did on the real service, and answers those values;
``templated`` fills them in. Resources of kinds altostratus does not have keep the fixed ids the
fixture gives them: nothing in the emulator holds them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx

from altostratus.client import Client
from altostratus.emulator import Emulator

FIXTURES = Path(__file__).parent / "fixtures"
REGIONS = ("LON1", "FRA1", "NYC1", "PHX1")
_MUTATING = {"POST", "PUT", "PATCH", "DELETE"}


def templated(fixture: str, values: dict[str, str]) -> str:
    text = (FIXTURES / fixture).read_text(encoding="utf-8")
    filled = re.sub(r"\{\{([^}]+)\}\}", lambda m: values[m[1]], text)
    json.loads(filled)
    return filled


def placeholders(fixture: str) -> set[str]:
    return set(re.findall(r"\{\{([^}]+)\}\}", (FIXTURES / fixture).read_text(encoding="utf-8")))


def _network(api: Client, key: str, values: dict[str, str], **fields: Any) -> str:
    made = api.networks.create(**fields)
    values[f"{key}.id"] = made.id
    values[f"{key}.name"] = str(api.networks.get(made.id, region=fields.get("region")).name)
    return made.id


def _rules(api: Client, key: str, firewall_id: str, region: str, values: dict[str, str]) -> None:
    """The ids of the firewall's default rules, as ``<key>.<protocol>.id``."""
    for rule in api.firewall_rules.list(firewall_id, region=region):
        values[f"{key}.{rule.protocol}.id"] = rule.id


def _rule(api: Client, key: str, firewall_id: str, values: dict[str, str], **fields: Any) -> None:
    values[f"{key}.id"] = api.firewall_rules.create(firewall_id, **fields).id


def _reserved_ip(api: Client, key: str, name: str, values: dict[str, str]) -> None:
    made = api.reserved_ips.create(name=name)
    values[f"{key}.id"] = made.id
    values[f"{key}.ip"] = str(api.reserved_ips.get(made.id).ip)


def _credential(api: Client, key: str, name: str, values: dict[str, str]) -> str:
    made = api.object_store_credentials.create(name=name)
    values[f"{key}.id"] = made.id
    values[f"{key}.access_key_id"] = str(made.access_key_id)
    values[f"{key}.secret_access_key"] = str(made.secret_access_key_id)
    return str(made.access_key_id)


def _store(api: Client, key: str, values: dict[str, str], **fields: Any) -> None:
    made = api.object_stores.create(**fields)
    values[f"{key}.id"] = made.id
    values[f"{key}.bucket_url"] = str(made.objectstore_endpoint)
    owner = made.owner_info.access_key_id if made.owner_info is not None else None
    values[f"{key}.owner_key"] = str(owner)


def seed_terraform(api: Client) -> dict[str, str]:
    """The shop of ``terraform-show.json``."""
    values: dict[str, str] = {}
    main = _network(
        api,
        "net_main",
        values,
        label="shop-main",
        cidr_v4="10.40.0.0/24",
        nameservers_v4=["8.8.8.8", "1.1.1.1"],
        region="LON1",
    )
    cache = _network(
        api,
        "net_cache",
        values,
        label="shop-cache",
        cidr_v4="10.41.0.0/24",
        nameservers_v4=["1.1.1.1"],
        region="FRA1",
    )
    web = api.firewalls.create(name="shop-web", network_id=main, create_default_rules=False).id
    values["fw_web.id"] = web
    for key, port, cidr, label, action in (
        ("http", 80, ["0.0.0.0/0"], "http", "allow"),
        ("https", 443, ["0.0.0.0/0"], "https", "allow"),
        ("ssh", 22, ["203.0.113.0/24", "198.51.100.7/32"], "ssh-office", "allow"),
        ("mysql", 3306, ["0.0.0.0/0"], "no-mysql", "deny"),
    ):
        _rule(
            api,
            f"fw_web.{key}",
            web,
            values,
            protocol="tcp",
            start_port=port,
            cidr=cidr,
            label=label,
            action=action,
        )
    _rule(
        api,
        "fw_web.all_out",
        web,
        values,
        protocol="tcp",
        start_port=1,
        end_port=65535,
        direction="egress",
        label="all-out",
    )
    db = api.firewalls.create(name="shop-db", network_id=main).id
    values["fw_db.id"] = db
    _rules(api, "fw_db", db, "LON1", values)
    _rule(
        api,
        "fw_db.postgres",
        db,
        values,
        protocol="tcp",
        start_port=5432,
        cidr=["10.40.0.0/24"],
        label="postgres",
    )
    fw_cache = api.firewalls.create(
        name="shop-cache", network_id=cache, create_default_rules=False, region="FRA1"
    ).id
    values["fw_cache.id"] = fw_cache
    _rule(
        api,
        "fw_cache.redis",
        fw_cache,
        values,
        protocol="tcp",
        start_port=6379,
        cidr=["10.41.0.0/24"],
        label="redis",
        region="FRA1",
    )
    _rule(
        api,
        "fw_cache.ping",
        fw_cache,
        values,
        protocol="icmp",
        cidr=["10.0.0.0/8"],
        label="ping",
        region="FRA1",
    )
    _reserved_ip(api, "ip_www", "shop-www", values)
    _reserved_ip(api, "ip_edge_0", "shop-edge-0", values)
    _reserved_ip(api, "ip_edge_1", "shop-edge-1", values)
    uploader = _credential(api, "cred_uploader", "shop-uploader", values)
    _store(api, "store_media", values, name="shop-media", size=500, access_key_id=uploader)
    _store(api, "store_logs", values, name="shop-logs", size=100)  # its own owner credential
    return values


def seed_pulumi(api: Client) -> dict[str, str]:
    """The payments stack of ``pulumi-stack-export.json``."""
    values: dict[str, str] = {}
    values["net_default.id"] = next(n.id for n in api.networks.list() if n.default)
    payments = _network(
        api,
        "net_payments",
        values,
        label="payments",
        cidr_v4="10.50.0.0/24",
        nameservers_v4=["8.8.8.8", "8.8.4.4"],
    )
    dr = _network(
        api,
        "net_dr",
        values,
        label="payments-dr",
        cidr_v4="10.51.0.0/24",
        nameservers_v4=["8.8.8.8"],
        region="NYC1",
    )
    fw = api.firewalls.create(
        name="payments-fw", network_id=payments, create_default_rules=False
    ).id
    values["fw_payments.id"] = fw
    _rule(api, "fw_payments.https", fw, values, protocol="tcp", start_port=443, label="https")
    _rule(
        api,
        "fw_payments.metrics",
        fw,
        values,
        protocol="tcp",
        start_port=9100,
        end_port=9102,
        cidr=["10.50.0.0/24"],
        label="metrics",
    )
    _rule(
        api, "fw_payments.app", fw, values, protocol="tcp", start_port=8080, cidr=["10.50.0.0/24"]
    )
    _rule(
        api,
        "fw_payments.dns",
        fw,
        values,
        protocol="udp",
        start_port=53,
        direction="egress",
        label="dns",
    )
    dr_fw = api.firewalls.create(name="payments-dr-fw-4e1c2a7", network_id=dr, region="NYC1").id
    values["fw_dr.id"] = dr_fw
    _rules(api, "fw_dr", dr_fw, "NYC1", values)
    _reserved_ip(api, "ip_payments", "payments-ip", values)
    key = _credential(api, "cred_backup", "payments-backup-key", values)
    _store(api, "store_backups", values, name="payments-backups", size=250, access_key_id=key)
    return values


SEEDS = {"terraform-show.json": seed_terraform, "pulumi-stack-export.json": seed_pulumi}


def inventory(api: Client) -> dict[str, set[str]]:
    """Every record's id in the account, by kind, in every region (default networks aside)."""
    found: dict[str, set[str]] = {}
    for region in REGIONS:
        firewalls = api.firewalls.list(region=region)
        listed = {
            "networks": [n.id for n in api.networks.list(region=region) if not n.default],
            "firewalls": [f.id for f in firewalls],
            "rules": [r.id for f in firewalls for r in f.rules or []],
            "load_balancers": [b.id for b in api.load_balancers.list(region=region)],
            "reserved_ips": [i.id for i in api.reserved_ips.list(region=region)],
            "object_stores": [s.id for s in api.object_stores.list(region=region)],
            "credentials": [c.id for c in api.object_store_credentials.list(region=region)],
        }
        for kind, ids in listed.items():
            found.setdefault(kind, set()).update(ids)
    found["webhooks"] = {w.id for w in api.webhooks.list()}
    return found


def forget_requests(emulator: Emulator) -> None:
    httpx.request("DELETE", f"{emulator.api_url}/_emulator/requests", json={}).raise_for_status()


def changing_requests(emulator: Emulator) -> list[str]:
    """The service requests since ``forget_requests`` that could change something."""
    answer = httpx.get(f"{emulator.api_url}/_emulator/requests")
    answer.raise_for_status()
    return [
        f"{entry['method']} {entry['path']}"
        for entry in answer.json()
        if entry["method"] in _MUTATING and not entry["path"].startswith("/_emulator")
    ]
