from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from altostratus.client._collection import Collection, fields, segment
from altostratus.client.errors import NotFoundError
from altostratus.client.models import FirewallRule


def _rules_path(firewall_id: str) -> str:
    return f"/v2/vpc/firewalls/{segment(firewall_id)}/rules"


def _port(value: int | str | None) -> str | None:
    return None if value is None else str(value)


def _cidr(value: Sequence[str] | str | None) -> list[str] | str | None:
    return value if value is None or isinstance(value, str) else list(value)


def _rule_body(
    protocol: str | None,
    start_port: int | str | None,
    end_port: int | str | None,
    cidr: Sequence[str] | str | None,
    direction: str | None,
    label: str | None,
) -> dict[str, Any]:
    """The fields a rule's create and update share; unset ones are left out."""
    return fields(
        protocol=protocol,
        start_port=_port(start_port),
        end_port=_port(end_port),
        cidr=_cidr(cidr),
        direction=direction,
        label=label,
    )


class FirewallRulesAPI(Collection):
    """Rules of a firewall; ports are sent as text, `cidr` as one block or a list."""

    def list(self, firewall_id: str, *, region: str | None = None) -> list[FirewallRule]:
        return self._many(FirewallRule, _rules_path(firewall_id), region=region)

    def get(self, firewall_id: str, rule_id: str, *, region: str | None = None) -> FirewallRule:
        """The rule, found in its firewall's list (the API has no call for one rule)."""
        for rule in self.list(firewall_id, region=region):
            if rule.id == rule_id:
                return rule
        raise NotFoundError(
            404,
            "database_firewall_rule_not_found",
            f"The firewall has no rule {rule_id}.",
            method="GET",
            path=_rules_path(firewall_id),
        )

    def create(
        self,
        firewall_id: str,
        *,
        protocol: str,
        start_port: int | str | None = None,
        end_port: int | str | None = None,
        cidr: Sequence[str] | str | None = None,
        direction: str | None = None,
        label: str | None = None,
        action: str | None = None,
        region: str | None = None,
    ) -> FirewallRule:
        body = _rule_body(protocol, start_port, end_port, cidr, direction, label)
        body.update(fields(action=action))
        path = _rules_path(firewall_id)
        return self._one(FirewallRule, "POST", path, region=region, body=body)

    def update(
        self,
        firewall_id: str,
        rule_id: str,
        *,
        protocol: str | None = None,
        start_port: int | str | None = None,
        end_port: int | str | None = None,
        cidr: Sequence[str] | str | None = None,
        direction: str | None = None,
        label: str | None = None,
        region: str | None = None,
    ) -> None:
        body = _rule_body(protocol, start_port, end_port, cidr, direction, label)
        path = f"{_rules_path(firewall_id)}/{segment(rule_id)}"
        self._send("PUT", path, region=region, body=body)

    def delete(self, firewall_id: str, rule_id: str, *, region: str | None = None) -> None:
        path = f"{_rules_path(firewall_id)}/{segment(rule_id)}"
        self._send("DELETE", path, region=region)
