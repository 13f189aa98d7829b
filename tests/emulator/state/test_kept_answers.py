"""Lists and retrieves answer from each record's kept, encoded answer: the bytes are exactly
those ``json.dumps`` gives, and every change a record's answer shows (its own fields, its
deletion, what holds it or what it holds, its readiness) shows at once."""

from __future__ import annotations

import json
from typing import Any

from altostratus.emulator.app import EmulatorApp
from altostratus.emulator.clock import Clock
from altostratus.emulator.state import Settings, State
from tests.support.service_api import KEY, S3_URL, Api, RecordingBuckets, RecordingEvents

BACKEND = {"ip": "10.0.0.9", "protocol": "TCP", "source_port": 80, "target_port": 8080}
PATHS = (
    "/v2/vpc/networks",
    "/v2/vpc/firewalls",
    "/v2/vpc/loadbalancers",
    "/v2/vpc/ips",
    "/v2/objectstores",
    "/v2/objectstore/credentials",
    "/v2/webhooks",
)


def _bytes(api: Api, path: str) -> bytes:
    response = api.client.get(path, headers={"Authorization": f"bearer {api.key}"})
    assert response.status_code == 200, response.get_data()
    return bytes(response.get_data())


def _populate(api: Api) -> dict[str, Any]:
    network = api.ok("POST", "/networks", {"label": "app"})
    firewall = api.ok("POST", "/firewalls", {"name": "fw", "network_id": network["id"]})
    body = {"name": "lb", "network_id": network["id"], "backends": [BACKEND]}
    balancer = api.ok("POST", "/loadbalancers", {**body, "firewall_id": firewall["id"]})
    reserved = api.ok("POST", "/ips", {"name": "front"})
    store = api.ok("POST", "/objectstores", {"name": "bucket", "max_size_gb": 500})
    api.ok("POST", "/webhooks", {"url": "http://127.0.0.1:9/hook", "events": ["*"]})
    return {
        "network": network,
        "firewall": firewall,
        "balancer": balancer,
        "reserved": reserved,
        "store": store,
    }


def test_lists_and_retrieves_are_byte_for_byte_what_json_dumps_gives(wsgi_api: Api) -> None:
    made = _populate(wsgi_api)
    paths = [*PATHS, "/v2/vpc/ips?page=1&per_page=1"]
    paths += [f"/v2/vpc/networks/{made['network']['id']}", f"/v2/vpc/ips/{made['reserved']['id']}"]
    paths += [f"/v2/objectstores/{made['store']['id']}"]
    for path in paths:
        for _ in range(2):  # the first answer is made, the second kept
            data = _bytes(wsgi_api, path)
            assert data == json.dumps(json.loads(data)).encode(), path


def test_an_empty_page_is_still_a_page(wsgi_api: Api) -> None:
    data = _bytes(wsgi_api, "/v2/vpc/ips")
    assert json.loads(data) == {"page": 1, "per_page": 20, "pages": 1, "items": []}
    assert data == json.dumps(json.loads(data)).encode()


def test_every_change_shows_in_the_next_list_and_retrieve(wsgi_api: Api) -> None:
    made = _populate(wsgi_api)
    network_id, balancer_id = made["network"]["id"], made["balancer"]["id"]
    reserved_id, firewall_id = made["reserved"]["id"], made["firewall"]["id"]
    for path in PATHS:
        _bytes(wsgi_api, path)  # kept now
    wsgi_api.ok("PUT", f"/networks/{network_id}", {"label": "relabelled"})
    assert [n["label"] for n in wsgi_api.ok("GET", "/networks")][-1] == "relabelled"
    assert wsgi_api.ok("GET", f"/networks/{network_id}")["label"] == "relabelled"

    assert wsgi_api.ok("GET", "/loadbalancers")[0]["state"] == ""
    wsgi_api.advance(5)  # provisioned: the kept answer no longer holds
    assert wsgi_api.ok("GET", "/loadbalancers")[0]["state"] == "available"

    assign = {"action": "assign", "assign_to_id": balancer_id, "region": "LON1"}
    wsgi_api.ok("POST", f"/ips/{reserved_id}/actions", assign)
    shown = wsgi_api.ok("GET", f"/ips/{reserved_id}")["assigned_to"]
    assert shown["name"] == "lb"
    wsgi_api.ok("PUT", f"/loadbalancers/{balancer_id}", {"name": "renamed"})
    assert wsgi_api.ok("GET", f"/ips/{reserved_id}")["assigned_to"]["name"] == "renamed"
    assert wsgi_api.ok("GET", "/loadbalancers")[0]["reserved_ip_name"] == "front"
    wsgi_api.ok("PUT", f"/ips/{reserved_id}", {"name": "back", "region": "LON1"})
    assert wsgi_api.ok("GET", "/loadbalancers")[0]["reserved_ip_name"] == "back"

    assert wsgi_api.ok("GET", "/firewalls")[0]["loadbalancer_count"] == 1
    wsgi_api.ok("DELETE", f"/loadbalancers/{balancer_id}")
    assert wsgi_api.ok("GET", "/firewalls")[0]["loadbalancer_count"] == 0
    rule = {"protocol": "tcp", "start_port": 22, "cidr": ["10.0.0.0/8"]}
    wsgi_api.ok("POST", f"/firewalls/{firewall_id}/rules", rule)
    assert wsgi_api.ok("GET", "/firewalls")[0]["rules"][-1]["start_port"] == "22"

    credential = wsgi_api.ok("GET", "/objectstore/credentials")["items"][0]
    key = {"access_key_id": "ROTATEDKEY"}
    wsgi_api.ok("PATCH", f"/objectstore/credentials/{credential['id']}", key)
    listed = wsgi_api.ok("GET", "/objectstore/credentials")["items"][0]
    assert listed["access_key_id"] == "ROTATEDKEY"
    owner = wsgi_api.ok("GET", "/objectstores")["items"][0]["owner_info"]
    assert owner["access_key_id"] == "ROTATEDKEY"


def test_a_deleting_network_shows_deleting_then_goes(
    events: RecordingEvents, buckets: RecordingBuckets
) -> None:
    settings = Settings(lb_ready_seconds=0, objectstore_ready_seconds=0, s3_url=S3_URL)
    settings.delete_seconds = 30
    state = State(Clock(), api_key=KEY, settings=settings)
    state.buckets = buckets
    api = Api(EmulatorApp(state, events))
    network = api.ok("POST", "/networks", {"label": "app"})
    assert api.ok("GET", f"/networks/{network['id']}")["status"] == "Active"
    api.ok("DELETE", f"/networks/{network['id']}")
    assert api.ok("GET", f"/networks/{network['id']}")["status"] == "Deleting"
    assert api.ok("GET", "/networks")[-1]["status"] == "Deleting"
    api.advance(31)
    assert [n["id"] for n in api.ok("GET", "/networks")] == [api.ok("GET", "/networks")[0]["id"]]
