"""Accounts, their API keys and their quota: limits per account, usage counted from live records."""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from altostratus.emulator.errors import Forbidden
from altostratus.emulator.state.base import new_id
from altostratus.emulator.state.ids import random_hex
from altostratus.emulator.vocabulary import QUOTA_NAMES

if TYPE_CHECKING:
    from altostratus.emulator.state import State

DEFAULT_LIMITS = {
    "instance_count": 100,
    "cpu_core": 400,
    "ram_mb": 819200,
    "disk_gb": 10000,
    "disk_volume_count": 100,
    "disk_snapshot_count": 100,
    "public_ip_address": 10,
    "subnet_count": 100,
    "network_count": 10,
    "security_group": 20,
    "security_group_rule": 200,
    "port_count": 1000,
    "loadbalancer_count": 16,
    "objectstore_gb": 100000,
}


@dataclass
class Account:
    id: str
    name: str
    api_key: str
    user_id: str = field(default_factory=new_id)
    limits: dict[str, int] = field(default_factory=lambda: dict(DEFAULT_LIMITS))

    def limit(self, name: str) -> int:
        """The account's limit of ``name``; the default for a counter newer than its record."""
        return self.limits.get(name, DEFAULT_LIMITS[name])

    def describe(self) -> dict[str, str]:
        return {"id": self.id, "name": self.name, "api_key": self.api_key}


class Accounts:
    def __init__(self) -> None:
        self.by_id: dict[str, Account] = {}

    def add(self, name: str, api_key: str | None = None, account_id: str | None = None) -> Account:
        account = Account(
            id=account_id or new_id(),
            name=name,
            api_key=api_key or "sk-" + random_hex(20),
        )
        self.by_id[account.id] = account
        return account

    def by_key(self, api_key: str) -> Account | None:
        for account in self.by_id.values():
            if secrets.compare_digest(account.api_key.encode(), api_key.encode()):
                return account
        return None


def usage(state: State, account_id: str) -> dict[str, int]:
    """What each quota field counts, from the account's live records in every region."""
    counts = dict.fromkeys(QUOTA_NAMES, 0)
    counts["network_count"] = state.networks.count_own(account_id)
    counts["security_group"] = state.firewalls.records.count(account_id)
    counts["security_group_rule"] = state.firewalls.rule_count(account_id)
    counts["public_ip_address"] = state.reserved_ips.records.count(
        account_id
    ) + state.load_balancers.records.count(account_id)
    counts["loadbalancer_count"] = state.load_balancers.records.count(account_id)
    counts["objectstore_gb"] = state.object_stores.gigabytes(account_id)
    return counts


def require_quota(state: State, account_id: str, name: str, adding: int = 1) -> None:
    """403 ``quota_limit_reached`` when ``adding`` more of ``name`` would pass the limit."""
    limit = state.accounts.by_id[account_id].limit(name)
    used = usage(state, account_id)[name]
    if used + adding > limit:
        raise Forbidden(
            f"Quota exceeded: {name}_limit is {limit} and {name}_usage is {used}, "
            f"so {adding} more cannot be created",
            "quota_limit_reached",
        )


def describe_quota(state: State, account: Account) -> dict[str, Any]:
    counts = usage(state, account.id)
    body: dict[str, Any] = {
        "id": account.id,
        "default_user_id": account.user_id,
        "default_user_email_address": re.sub(r"[^a-z0-9.-]+", "-", account.name.lower())
        + "@example.com",
    }
    for name in QUOTA_NAMES:
        body[f"{name}_limit"] = account.limit(name)
        body[f"{name}_usage"] = counts[name]
    body.update(clusters_lifetime_count=0, clusters_current_count=0, instances_lifetime_count=0)
    return body
