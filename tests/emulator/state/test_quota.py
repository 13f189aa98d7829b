from __future__ import annotations

from typing import Any

from tests.support.service_api import Api

NAMES = (
    "instance_count",
    "cpu_core",
    "ram_mb",
    "disk_gb",
    "disk_volume_count",
    "disk_snapshot_count",
    "public_ip_address",
    "subnet_count",
    "network_count",
    "security_group",
    "security_group_rule",
    "port_count",
    "loadbalancer_count",
    "objectstore_gb",
)


def quota(api: Api) -> dict[str, Any]:
    return api.ok("GET", "/v2/quota")  # type: ignore[no-any-return]


def test_the_quota_object(wsgi_api: Api) -> None:
    body = quota(wsgi_api)
    expected = {"id", "default_user_id", "default_user_email_address"}
    expected |= {f"{n}_{s}" for n in NAMES for s in ("limit", "usage")}
    expected |= {"clusters_lifetime_count", "clusters_current_count", "instances_lifetime_count"}
    assert set(body) == expected
    assert body["id"] == wsgi_api.app.state.default_account.id
    limits = {
        n: body[f"{n}_limit"]
        for n in ("network_count", "security_group", "security_group_rule", "public_ip_address")
    }
    assert limits == {
        "network_count": 10,
        "security_group": 20,
        "security_group_rule": 200,
        "public_ip_address": 10,
    }
    assert (body["loadbalancer_count_limit"], body["objectstore_gb_limit"]) == (16, 100000)
    assert all(body[f"{n}_usage"] == 0 for n in NAMES)


def test_usage_counts_live_resources_across_regions(wsgi_api: Api) -> None:
    network = wsgi_api.ok("POST", "/networks", {"label": "n"})
    wsgi_api.ok("POST", "/networks", {"label": "m", "region": "FRA1"})
    wsgi_api.ok("POST", "/firewalls", {"name": "fw", "network_id": network["id"]})
    wsgi_api.ok("POST", "/ips", {"name": "ip"})
    body = {"name": "lb", "network_id": network["id"], "backends": []}
    wsgi_api.ok("POST", "/loadbalancers", body)
    usage = quota(wsgi_api)
    assert usage["network_count_usage"] == 2
    assert usage["security_group_usage"] == 2  # the balancer's own firewall counts
    assert usage["security_group_rule_usage"] == 3  # a balancer without backends opens nothing
    assert usage["public_ip_address_usage"] == 2
    wsgi_api.ok("DELETE", f"/ips/{wsgi_api.ok('GET', '/ips')['items'][0]['id']}")
    assert quota(wsgi_api)["public_ip_address_usage"] == 1


def test_creating_past_a_limit_is_refused_and_creates_nothing(wsgi_api: Api) -> None:
    account = wsgi_api.app.state.default_account.id
    limits = {
        "network_count_limit": 1,
        "security_group_limit": 1,
        "security_group_rule_limit": 4,
        "public_ip_address_limit": 1,
    }
    set_to = wsgi_api.admin("PUT", f"/accounts/{account}/quota", limits)
    assert set_to["network_count_limit"] == 1
    network = wsgi_api.ok("POST", "/networks", {"label": "n"})
    reply = wsgi_api.error(403, "quota_limit_reached", "POST", "/networks", {"label": "m"})
    assert "network_count" in reply.body["reason"] and "1" in reply.body["reason"]
    fw = wsgi_api.ok("POST", "/firewalls", {"name": "a", "network_id": network["id"]})
    body = {"name": "b", "network_id": network["id"], "create_default_rules": False}
    wsgi_api.error(403, "quota_limit_reached", "POST", "/firewalls", body)
    wsgi_api.ok("POST", f"/firewalls/{fw['id']}/rules", {"protocol": "icmp"})
    reply = wsgi_api.error(
        403, "quota_limit_reached", "POST", f"/firewalls/{fw['id']}/rules", {"protocol": "icmp"}
    )
    assert "security_group_rule" in reply.body["reason"]
    wsgi_api.ok("POST", "/ips", {"name": "ip"})
    wsgi_api.error(403, "quota_limit_reached", "POST", "/ips", {"name": "ip2"})
    body = {"name": "lb", "network_id": network["id"], "backends": []}
    wsgi_api.error(403, "quota_limit_reached", "POST", "/loadbalancers", body)
    usage = quota(wsgi_api)
    assert [
        usage[f"{n}_usage"]
        for n in ("network_count", "security_group", "security_group_rule", "public_ip_address")
    ] == [1, 1, 4, 1]


def test_default_rules_count_against_the_rule_limit(wsgi_api: Api) -> None:
    account = wsgi_api.app.state.default_account.id
    wsgi_api.admin("PUT", f"/accounts/{account}/quota", {"security_group_rule_limit": 2})
    network_id = wsgi_api.ok("GET", "/networks")[0]["id"]
    body = {"name": "a", "network_id": network_id}
    wsgi_api.error(403, "quota_limit_reached", "POST", "/firewalls", body)
    assert wsgi_api.ok("GET", "/firewalls") == []


def test_quota_is_per_account(wsgi_api: Api, other: Api) -> None:
    wsgi_api.ok("POST", "/ips", {"name": "ip"})
    assert quota(other)["public_ip_address_usage"] == 0
    assert quota(other)["id"] != quota(wsgi_api)["id"]


def test_admin_quota_validates(wsgi_api: Api) -> None:
    account = wsgi_api.app.state.default_account.id
    path = f"/_emulator/accounts/{account}/quota"
    wsgi_api.error(
        400,
        "parameter_network_count_limit_invalid",
        "PUT",
        path,
        {"network_count_limit": -1},
        form=False,
    )
    wsgi_api.error(
        400, "parameter_bananas_limit_invalid", "PUT", path, {"bananas_limit": 1}, form=False
    )
    wsgi_api.error(
        404, "database_account_not_found", "PUT", "/_emulator/accounts/nope/quota", {}, form=False
    )
