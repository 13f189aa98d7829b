"""A firewall's inline rules through the provider process (``python -m pulumi.dynamic``): made
with the firewall, reconciled in place, refreshed, their ids in the outputs."""

from __future__ import annotations

from typing import Any

import grpc
import pytest

from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.providers.firewall import FirewallProvider
from tests.support.engine import Engine

from .scenarios import dependencies

SSH = {"protocol": "tcp", "start_port": "22", "cidr": ["10.0.0.0/8"], "label": "ssh"}
WEB = {"protocol": "tcp", "start_port": "8000", "end_port": "8080"}
PING = {"protocol": "icmp", "action": "deny", "cidr": ["192.168.0.0/16"]}
OUT = {"protocol": "udp", "start_port": "53", "cidr": ["1.1.1.1/32"], "label": "dns"}


def _inputs(network_id: str, **rules: Any) -> dict[str, Any]:
    return {"name": "edge", "network_id": network_id, "create_default_rules": False, **rules}


def _live(api: Client, firewall_id: str) -> dict[str, tuple[str, str, str, str]]:
    """The firewall's rules by id: direction, protocol, ports, label."""
    return {
        r.id: (str(r.direction), str(r.protocol), str(r.ports or ""), str(r.label or ""))
        for r in api.firewall_rules.list(firewall_id)
    }


def test_inline_rules_are_made_with_the_firewall_and_their_ids_are_outputs(
    configured_client: Client, provider_engine: Engine
) -> None:
    deps = dependencies(configured_client, ("network_id",))
    inputs = _inputs(deps["network_id"], ingress_rules=[SSH, WEB], egress_rules=[OUT])
    created = provider_engine.up(FirewallProvider(), "edge", inputs, None)
    outs = created.state.outputs
    live = _live(configured_client, created.state.id)
    assert sorted(live.values()) == [
        ("egress", "udp", "53", "dns"),
        ("ingress", "tcp", "22", "ssh"),
        ("ingress", "tcp", "8000-8080", ""),
    ]
    assert [r["label"] for r in outs["ingress_rules"]] == ["ssh", ""]
    assert {r["id"] for r in outs["ingress_rules"] + outs["egress_rules"]} == set(live)
    assert outs["egress_rules"][0] == {
        "id": outs["egress_rules"][0]["id"],
        "protocol": "udp",
        "start_port": "53",
        "end_port": "53",
        "cidr": ["1.1.1.1/32"],
        "label": "dns",
        "action": "allow",
    }
    reordered = {**inputs, "ingress_rules": [WEB, SSH]}
    assert (
        provider_engine.up(FirewallProvider(), "edge", reordered, created.state).operation == "same"
    )


def test_changed_inline_rules_update_in_place_keeping_the_unchanged_ones(
    configured_client: Client, provider_engine: Engine, fresh_emulator: Emulator
) -> None:
    deps = dependencies(configured_client, ("network_id",))
    created = provider_engine.up(
        FirewallProvider(), "edge", _inputs(deps["network_id"], ingress_rules=[SSH, WEB]), None
    )
    ssh_id = next(r["id"] for r in created.state.outputs["ingress_rules"] if r["label"] == "ssh")
    changed = _inputs(deps["network_id"], ingress_rules=[SSH, PING], egress_rules=[OUT])
    fresh_emulator.clear_requests()
    updated = provider_engine.up(FirewallProvider(), "edge", changed, created.state)
    assert updated.operation == "update" and updated.state.id == created.state.id
    writes = [
        (e["method"], e["path"].rsplit("/", 1)[-1] == "rules")
        for e in fresh_emulator.requests()
        if e["method"] != "GET"
    ]
    assert sorted(writes) == [("DELETE", False), ("POST", True), ("POST", True)]
    live = _live(configured_client, created.state.id)
    assert sorted(live.values()) == [
        ("egress", "udp", "53", "dns"),
        ("ingress", "icmp", "", ""),
        ("ingress", "tcp", "22", "ssh"),
    ]
    assert ssh_id in live
    assert {r["id"] for r in updated.state.outputs["ingress_rules"]} >= {ssh_id}
    assert (
        provider_engine.up(FirewallProvider(), "edge", changed, updated.state).operation == "same"
    )
    cleared = _inputs(deps["network_id"], ingress_rules=[SSH])
    emptied = provider_engine.up(FirewallProvider(), "edge", cleared, updated.state)
    assert sorted(_live(configured_client, created.state.id).values()) == [
        ("ingress", "tcp", "22", "ssh")
    ]
    assert emptied.state.outputs.get("egress_rules") is None


def test_a_refresh_reports_rules_the_firewall_did_not_make(
    configured_client: Client, provider_engine: Engine
) -> None:
    deps = dependencies(configured_client, ("network_id",))
    inputs = {"name": "edge", "network_id": deps["network_id"], "ingress_rules": [SSH]}
    created = provider_engine.up(FirewallProvider(), "edge", inputs, None)
    assert (
        len(configured_client.firewall_rules.list(created.state.id)) == 4
    )  # the service's three, and ssh
    assert [r["label"] for r in created.state.outputs["ingress_rules"]] == ["ssh"]
    assert provider_engine.refresh(FirewallProvider(), "edge", created.state) is not None
    outside = configured_client.firewall_rules.create(
        created.state.id, protocol="tcp", start_port="5432", label="by-hand"
    )
    configured_client.firewall_rules.create(
        created.state.id, protocol="tcp", start_port="1", direction="egress"
    )
    refreshed = provider_engine.refresh(FirewallProvider(), "edge", created.state)
    assert refreshed is not None
    reported = {r["id"]: r["label"] for r in refreshed.outputs["ingress_rules"]}
    assert reported[outside.id] == "by-hand" and len(reported) == 2
    assert refreshed.outputs.get("egress_rules") is None  # egress is not managed here
    corrected = provider_engine.up(FirewallProvider(), "edge", inputs, refreshed)
    assert corrected.operation == "update"
    assert outside.id not in _live(configured_client, created.state.id)
    assert (
        len(configured_client.firewall_rules.list(created.state.id)) == 5
    )  # defaults, ssh, the egress one


@pytest.mark.parametrize(
    ("rule", "reason"),
    [
        ({"start_port": "22"}, "protocol is required"),
        ({"protocol": "icmp", "start_port": "1"}, "must be left out for icmp"),
        ({"protocol": "tcp"}, "start_port is required for tcp"),
        ({**SSH, "direction": "egress"}, "unknown fields ['direction']"),
        ({**SSH, "end_port": "21"}, "end_port 21 is below start_port 22"),
        ({**SSH, "cidr": ["10.0.0.0/40"]}, "cidr holds"),
        ({**SSH, "action": "drop"}, "action must be one of allow, deny"),
    ],
)
def test_a_wrong_inline_rule_fails_check_naming_the_list_and_its_place(
    rule: dict[str, Any], reason: str
) -> None:
    news = {"network_id": "n", "egress_rules": [OUT, rule]}
    failures = FirewallProvider().check({}, news).failures
    assert [f.property for f in failures] == ["egress_rules"]
    assert failures[0].reason.startswith("egress_rules [1] ")
    assert reason in failures[0].reason


def test_the_bridged_providers_block_names_are_taken() -> None:
    from altostratus.providers.firewall import Firewall

    assert FirewallProvider().check({}, {"ingress_rules": [SSH]}).failures == []
    aliases = {f.name: f.alias for f in FirewallProvider.fields if f.alias}
    assert aliases == {"ingress_rules": "ingress_rule", "egress_rules": "egress_rule"}
    assert {"ingress_rule", "egress_rule"} <= set(Firewall.__init__.__code__.co_varnames)


def test_a_create_whose_rules_are_refused_leaves_no_firewall(
    configured_client: Client, provider_engine: Engine, fresh_emulator: Emulator
) -> None:
    deps = dependencies(configured_client, ("network_id",))
    fresh_emulator.set_quota(security_group_rule=1)
    inputs = _inputs(deps["network_id"], ingress_rules=[SSH, WEB])
    with pytest.raises(grpc.RpcError) as raised:
        provider_engine.up(FirewallProvider(), "edge", inputs, None)
    details = raised.value.details() or ""
    assert "403 quota_limit_reached" in details and "was deleted" in details
    assert configured_client.firewalls.list() == []


def test_a_rule_deleted_by_hand_is_made_again_and_a_stray_one_of_its_shape_taken(
    configured_client: Client, provider_engine: Engine
) -> None:
    deps = dependencies(configured_client, ("network_id",))
    created = provider_engine.up(
        FirewallProvider(), "edge", _inputs(deps["network_id"], ingress_rules=[SSH, WEB]), None
    )
    ssh_id = next(r["id"] for r in created.state.outputs["ingress_rules"] if r["label"] == "ssh")
    configured_client.firewall_rules.delete(created.state.id, ssh_id)
    stray = configured_client.firewall_rules.create(created.state.id, **PING, direction="ingress")
    changed = _inputs(deps["network_id"], ingress_rules=[SSH, WEB, PING])
    updated = provider_engine.up(FirewallProvider(), "edge", changed, created.state)
    live = _live(configured_client, created.state.id)
    assert sorted(live.values()) == [
        ("ingress", "icmp", "", ""),
        ("ingress", "tcp", "22", "ssh"),
        ("ingress", "tcp", "8000-8080", ""),
    ]
    assert stray.id in live and ssh_id not in live
    assert {r["id"] for r in updated.state.outputs["ingress_rules"]} == set(live)
