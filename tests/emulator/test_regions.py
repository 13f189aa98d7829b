"""GET /v2/regions and /v2/vpc/regions: the regions, their names, and the account's default."""

from __future__ import annotations

import pytest

from altostratus.client import Client
from altostratus.emulator import Emulator

from .service_api import Api

REGIONS = [
    {"code": "LON1", "name": "London 1", "country": "GB", "default": True},
    {"code": "FRA1", "name": "Frankfurt 1", "country": "DE", "default": False},
    {"code": "NYC1", "name": "New York 1", "country": "US", "default": False},
    {"code": "PHX1", "name": "Phoenix 1", "country": "US", "default": False},
]


@pytest.mark.parametrize("path", ["/v2/regions", "/v2/vpc/regions"])
def test_the_regions_are_listed_with_the_default_marked(api: Api, path: str) -> None:
    reply = api.get(path)
    assert reply.status == 200
    assert reply.body == REGIONS


def test_a_region_in_the_query_is_accepted_as_the_official_clients_send_it(api: Api) -> None:
    assert api.ok("GET", "/v2/regions", query={"region": "LON1"}) == REGIONS


def test_every_listed_region_can_hold_resources(api: Api) -> None:
    for region in api.ok("GET", "/v2/regions"):
        networks = api.ok("GET", "/networks", query={"region": region["code"]})
        assert [n["label"] for n in networks] == ["Default"]


def test_the_regions_need_a_valid_key(api: Api) -> None:
    reply = api.with_key("sk-wrong").get("/v2/regions")
    assert reply.status == 401
    assert reply.body["code"] == "authentication_invalid_key"


def test_the_client_reads_the_emulators_regions(fresh_emulator: Emulator) -> None:
    with Client(api_key=fresh_emulator.api_key, api_url=fresh_emulator.api_url) as client:
        regions = client.regions.list()
    assert [r.model_dump() for r in regions] == REGIONS
