"""``delete_seconds``: a deleted network, firewall, load balancer, reserved IP or object store
stays in its deleting state for that many emulated seconds, holding what it held, then goes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from botocore.exceptions import ClientError

from altostratus.emulator import Emulator
from altostratus.emulator.app import EmulatorApp
from altostratus.emulator.clock import Clock
from altostratus.emulator.state import Settings, State
from tests.support.service_api import KEY, S3_URL, Api, RecordingBuckets, RecordingEvents

from ..persistence.test_persistence import _s3
from ..serving.test_server import call

SECONDS = 30.0
BACKENDS = [{"ip": "10.0.0.9", "protocol": "TCP", "source_port": 80, "target_port": 8080}]


@pytest.fixture
def slow(events: RecordingEvents, buckets: RecordingBuckets) -> Api:
    """The service, removing asynchronously."""
    settings = Settings(lb_ready_seconds=0, objectstore_ready_seconds=0, s3_url=S3_URL)
    settings.delete_seconds = SECONDS
    state = State(Clock(), api_key=KEY, settings=settings)
    state.buckets = buckets
    return Api(EmulatorApp(state, events))


def _network(api: Api) -> dict[str, Any]:
    return api.ok("POST", "/networks", {"label": "app"})


def _balancer(api: Api, network_id: str, name: str = "web") -> dict[str, Any]:
    body = {"name": name, "network_id": network_id, "backends": BACKENDS}
    return api.ok("POST", "/loadbalancers", body)


def test_a_deleted_network_shows_deleting_then_is_gone(slow: Api, events: RecordingEvents) -> None:
    network = _network(slow)
    path = f"/networks/{network['id']}"
    assert slow.ok("DELETE", path) == {"result": "success"}
    assert slow.ok("GET", path)["status"] == "Deleting"
    listed = {n["id"]: n["status"] for n in slow.ok("GET", "/networks")}
    assert listed[network["id"]] == "Deleting"
    assert "network.deleted" not in events.names()

    slow.advance(SECONDS - 1)
    assert slow.ok("GET", path)["status"] == "Deleting"
    slow.advance(1)
    slow.error(404, "database_network_not_found", "GET", path)
    assert events.names().count("network.deleted") == 1
    assert network["id"] not in {n["id"] for n in slow.ok("GET", "/networks")}


def test_a_balancer_being_deleted_still_holds_its_network(slow: Api) -> None:
    network = _network(slow)
    balancer = _balancer(slow, network["id"])
    slow.ok("DELETE", f"/loadbalancers/{balancer['id']}")
    deleting = slow.ok("GET", f"/loadbalancers/{balancer['id']}")
    assert deleting["state"] == "deleting" and deleting["public_ip"]

    refused = slow.error(409, "database_network_inuse", "DELETE", f"/networks/{network['id']}")
    assert f"load balancer 'web' ({balancer['id']})" in refused.body["reason"]
    assert slow.ok("GET", f"/networks/{network['id']}")["status"] == "Active"

    slow.advance(SECONDS)
    slow.error(404, "database_loadbalancer_not_found", "GET", f"/loadbalancers/{balancer['id']}")
    slow.ok("DELETE", f"/networks/{network['id']}")
    assert slow.ok("GET", f"/networks/{network['id']}")["status"] == "Deleting"


def test_a_firewall_being_deleted_refuses_changes_and_goes_with_its_network(
    slow: Api, events: RecordingEvents
) -> None:
    network = _network(slow)
    firewall = slow.ok("POST", "/firewalls", {"name": "fw", "network_id": network["id"]})
    path = f"/firewalls/{firewall['id']}"
    slow.ok("DELETE", path)
    assert slow.ok("GET", path)["name"] == "fw"  # no status field: the firewall still answers
    slow.error(409, "database_firewall_deleting", "PUT", path, {"name": "other"})
    rule = {"protocol": "tcp", "start_port": "22"}
    slow.error(409, "database_firewall_deleting", "POST", f"{path}/rules", rule)
    slow.error(409, "database_firewall_duplicate_name", "POST", "/firewalls",
               {"name": "fw", "network_id": network["id"]})  # fmt: skip
    second = slow.ok("POST", "/firewalls", {"name": "fw2", "network_id": network["id"]})

    slow.ok("DELETE", f"/networks/{network['id']}")  # its firewalls go with it
    assert slow.ok("GET", f"/networks/{network['id']}")["status"] == "Deleting"
    assert slow.ok("GET", f"/firewalls/{second['id']}")["name"] == "fw2"  # being removed too
    slow.error(409, "database_firewall_deleting", "PUT", f"/firewalls/{second['id']}",
               {"name": "other"})  # fmt: skip

    slow.advance(SECONDS)
    slow.error(404, "database_firewall_not_found", "GET", path)
    slow.error(404, "database_firewall_not_found", "GET", f"/firewalls/{second['id']}")
    slow.error(404, "database_network_not_found", "GET", f"/networks/{network['id']}")
    assert events.names()[-3:] == ["firewall.deleted", "firewall.deleted", "network.deleted"]
    slow.ok("POST", "/firewalls", {"name": "fw"})


def test_nothing_new_may_refer_to_a_record_being_deleted(slow: Api) -> None:
    network = _network(slow)
    balancer = _balancer(slow, network["id"])
    reserved = slow.ok("POST", "/ips", {"name": "ip"})
    slow.ok("DELETE", f"/loadbalancers/{balancer['id']}")
    slow.error(409, "database_loadbalancer_deleting", "POST", f"/ips/{reserved['id']}/actions",
               {"action": "assign", "assign_to_id": balancer["id"]})  # fmt: skip
    slow.error(409, "database_loadbalancer_deleting", "PUT", f"/loadbalancers/{balancer['id']}",
               {"name": "renamed"})  # fmt: skip
    slow.advance(SECONDS)
    slow.ok("DELETE", f"/networks/{network['id']}")
    slow.error(409, "database_network_deleting", "POST", "/firewalls",
               {"name": "fw", "network_id": network["id"]})  # fmt: skip
    slow.error(409, "database_network_deleting", "POST", "/loadbalancers",
               {"name": "lb", "network_id": network["id"], "backends": BACKENDS})  # fmt: skip
    slow.error(409, "database_network_deleting", "PUT", f"/networks/{network['id']}",
               {"label": "x"})  # fmt: skip


def test_a_reserved_ip_being_deleted_keeps_its_address_and_name(
    slow: Api, events: RecordingEvents
) -> None:
    reserved = slow.ok("POST", "/ips", {"name": "ip"})
    address = slow.ok("GET", f"/ips/{reserved['id']}")["ip"]
    slow.ok("DELETE", f"/ips/{reserved['id']}")
    slow.error(409, "database_ip_duplicate_name", "POST", "/ips", {"name": "ip"})
    other = slow.ok("POST", "/ips", {"name": "other"})
    assert slow.ok("GET", f"/ips/{other['id']}")["ip"] != address
    assert "ip.deleted" not in events.names()
    slow.advance(SECONDS)
    slow.error(404, "database_ip_not_found", "GET", f"/ips/{reserved['id']}")
    assert "ip.deleted" in events.names()
    slow.ok("POST", "/ips", {"name": "ip"})


def test_an_object_store_being_deleted_keeps_its_bucket_and_owner(
    slow: Api, buckets: RecordingBuckets, events: RecordingEvents
) -> None:
    owner = slow.ok("POST", "/objectstore/credentials", {"name": "owner"})
    store = slow.ok(
        "POST", "/objectstores", {"name": "files", "access_key_id": owner["access_key_id"]}
    )
    slow.ok("DELETE", f"/objectstores/{store['id']}")
    assert slow.ok("GET", f"/objectstores/{store['id']}")["status"] == "deleting"
    refused = slow.error(409, "database_objectstore_credential_inuse", "DELETE",
                         f"/objectstore/credentials/{owner['id']}")  # fmt: skip
    assert f"object store 'files' ({store['id']})" in refused.body["reason"]
    slow.error(409, "database_objectstore_deleting", "PATCH", f"/objectstores/{store['id']}",
               {"max_size_gb": 10})  # fmt: skip
    assert buckets.deleted == [] and "objectstore.deleted" not in events.names()

    slow.advance(SECONDS)
    slow.error(404, "database_objectstore_not_found", "GET", f"/objectstores/{store['id']}")
    assert len(buckets.deleted) == 1 and buckets.deleted[0].startswith("files-")
    assert "objectstore.deleted" in events.names()
    slow.ok("DELETE", f"/objectstore/credentials/{owner['id']}")  # credentials go at once
    path = f"/objectstore/credentials/{owner['id']}"
    slow.error(404, "database_objectstore_credential_not_found", "GET", path)


def test_deleting_again_answers_success_and_keeps_the_time(slow: Api) -> None:
    network = _network(slow)
    path = f"/networks/{network['id']}"
    slow.ok("DELETE", path)
    slow.advance(SECONDS / 2)
    assert slow.ok("DELETE", path) == {"result": "success"}
    slow.advance(SECONDS / 2)
    slow.error(404, "database_network_not_found", "GET", path)


def test_the_time_is_over_even_when_the_next_request_fails(
    slow: Api, buckets: RecordingBuckets
) -> None:
    store = slow.ok("POST", "/objectstores", {"name": "files"})
    slow.ok("DELETE", f"/objectstores/{store['id']}")
    slow.advance(SECONDS)
    assert buckets.deleted == []
    slow.error(404, "database_network_not_found", "GET", "/networks/" + "0" * 36)
    assert len(buckets.deleted) == 1


def test_without_delete_seconds_removal_is_at_once(wsgi_api: Api, service: EmulatorApp) -> None:
    assert service.state.settings.delete_seconds == 0
    network = _network(wsgi_api)
    wsgi_api.ok("DELETE", f"/networks/{network['id']}")
    wsgi_api.error(404, "database_network_not_found", "GET", f"/networks/{network['id']}")


def test_reset_ends_every_removal(slow: Api) -> None:
    network = _network(slow)
    slow.ok("DELETE", f"/networks/{network['id']}")
    assert slow.ok("GET", f"/networks/{network['id']}")["status"] == "Deleting"
    slow.admin("POST", "/reset")
    assert [n["label"] for n in slow.ok("GET", "/networks")] == ["Default"]
    slow.advance(SECONDS)
    assert [n["label"] for n in slow.ok("GET", "/networks")] == ["Default"]


def test_a_removal_under_way_survives_a_restart(tmp_path: Path) -> None:
    with Emulator(state_dir=tmp_path, delete_seconds=3600) as first:
        network = call(first, "POST", "/v2/vpc/networks", {"label": "app"})[1]
        firewall = {"name": "fw", "network_id": network["id"]}
        firewall = call(first, "POST", "/v2/vpc/firewalls", firewall)[1]
        assert call(first, "DELETE", f"/v2/vpc/networks/{network['id']}")[0] == 200
    with Emulator(state_dir=tmp_path, delete_seconds=3600) as second:
        path = f"/v2/vpc/networks/{network['id']}"
        assert call(second, "GET", path)[1]["status"] == "Deleting"
        status, answer = call(second, "PUT", f"/v2/vpc/firewalls/{firewall['id']}", {"name": "x"})
        assert (status, answer["code"]) == (409, "database_firewall_deleting")
        call(second, "POST", "/_emulator/clock", {"advance_seconds": 3600})
        assert call(second, "GET", f"/v2/vpc/firewalls/{firewall['id']}")[0] == 404
        assert call(second, "GET", path)[0] == 404


def test_delete_seconds_is_refused_below_zero() -> None:
    with pytest.raises(ValueError, match="delete_seconds"):
        Emulator(delete_seconds=-1)


def test_a_bucket_serves_while_its_store_is_deleting_and_not_after() -> None:
    with Emulator(delete_seconds=60, objectstore_ready_seconds=0) as emulator:
        credential = {"name": "c", "region": "LON1"}
        credential = call(emulator, "POST", "/v2/objectstore/credentials", credential)[1]
        store = {"name": "files", "access_key_id": credential["access_key_id"]}
        store = call(emulator, "POST", "/v2/objectstores", store)[1]
        bucket = store["objectstore_endpoint"].rsplit("/", 1)[1]
        s3 = _s3(emulator, credential)
        s3.put_object(Bucket=bucket, Key="a.txt", Body=b"kept")
        assert call(emulator, "DELETE", f"/v2/objectstores/{store['id']}")[0] == 200
        assert s3.get_object(Bucket=bucket, Key="a.txt")["Body"].read() == b"kept"
        emulator.advance_clock(60)
        with pytest.raises(ClientError, match="NoSuchBucket"):
            s3.get_object(Bucket=bucket, Key="a.txt")
        assert [b["Name"] for b in s3.list_buckets()["Buckets"]] == []
