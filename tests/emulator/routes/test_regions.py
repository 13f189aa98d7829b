"""GET /v2/regions and /v2/vpc/regions: the regions, their names, and the account's default."""

from __future__ import annotations

import pytest

from altostratus.client import BadRequestError, Client
from altostratus.emulator import Emulator
from tests.support.service_api import Api

EVERY_FEATURE = {
    "iaas": True,
    "kubernetes": True,
    "object_store": True,
    "loadbalancer": True,
    "dbaas": True,
    "volume": True,
}


def _region(code: str, name: str, country: str, country_name: str) -> dict[str, object]:
    return {
        "code": code,
        "name": name,
        "type": "public",
        "out_of_capacity": False,
        "country": country,
        "country_name": country_name,
        "features": EVERY_FEATURE,
        "default": code == "LON1",
    }


REGIONS = [
    _region("LON1", "London 1", "GB", "United Kingdom"),
    _region("FRA1", "Frankfurt 1", "DE", "Germany"),
    _region("NYC1", "New York 1", "US", "United States"),
    _region("PHX1", "Phoenix 1", "US", "United States"),
]


@pytest.mark.parametrize("path", ["/v2/regions", "/v2/vpc/regions"])
def test_the_regions_are_listed_with_the_default_marked(wsgi_api: Api, path: str) -> None:
    reply = wsgi_api.get(path)
    assert reply.status == 200
    assert reply.body == REGIONS


def test_a_region_in_the_query_is_accepted_as_the_official_clients_send_it(wsgi_api: Api) -> None:
    assert wsgi_api.ok("GET", "/v2/regions", query={"region": "LON1"}) == REGIONS


def test_every_listed_region_can_hold_resources(wsgi_api: Api) -> None:
    for region in wsgi_api.ok("GET", "/v2/regions"):
        networks = wsgi_api.ok("GET", "/networks", query={"region": region["code"]})
        assert [n["label"] for n in networks] == ["Default"]


def test_the_regions_need_a_valid_key(wsgi_api: Api) -> None:
    reply = wsgi_api.with_key("sk-wrong").get("/v2/regions")
    assert reply.status == 401
    assert reply.body["code"] == "database_account_not_found"


def test_the_client_reads_the_emulators_regions(fresh_emulator: Emulator) -> None:
    with Client(api_key=fresh_emulator.api_key, api_url=fresh_emulator.api_url) as client:
        regions = client.regions.list()
    assert [r.model_dump() for r in regions] == REGIONS


def test_extra_region_codes_with_their_features() -> None:
    extra = ["local", "FAKE:object_store,loadbalancer"]
    with (
        Emulator(extra_regions=extra) as emulator,
        Client(emulator.api_key, emulator.api_url) as client,
    ):
        regions = {region.code: region for region in client.regions.list()}
        assert list(regions)[-2:] == ["LOCAL", "FAKE"]
        assert all(regions["LOCAL"].offers(f) for f in EVERY_FEATURE)
        offered = {
            **dict.fromkeys(EVERY_FEATURE, False),
            "object_store": True,
            "loadbalancer": True,
        }
        assert regions["FAKE"].features == offered
        store = client.object_stores.create(name="media", region="fake")
        assert client.object_stores.get(store.id, region="FAKE").name == "media"
        network = client.networks.list(region="LOCAL")[0]
        assert network.default and network.label == "Default"


def test_a_region_refuses_to_create_what_its_features_do_not_offer() -> None:
    extra = ["STORES:object_store", "BALANCERS:loadbalancer"]
    with (
        Emulator(extra_regions=extra) as emulator,
        Client(emulator.api_key, emulator.api_url) as client,
    ):
        for region in ("STORES", "BALANCERS"):
            client.networks.create(label="app", region=region)
        network = {r: client.networks.list(region=r)[0].id for r in ("STORES", "BALANCERS")}
        backends = [{"ip": "10.0.0.5", "protocol": "TCP", "source_port": 80, "target_port": 80}]
        with pytest.raises(BadRequestError) as refused:
            client.load_balancers.create(
                name="lb", network_id=network["STORES"], backends=backends, region="STORES"
            )
        assert refused.value.code == "region_feature_unavailable"
        assert refused.value.reason == (
            "You can't create a load balancer in the STORES region: it does not offer loadbalancer"
        )
        for refuse in (
            lambda: client.object_stores.create(name="media", region="BALANCERS"),
            lambda: client.object_store_credentials.create(name="ci", region="BALANCERS"),
        ):
            with pytest.raises(BadRequestError) as refused:
                refuse()
            assert refused.value.code == "region_feature_unavailable"
            assert "in the BALANCERS region: it does not offer object_store" in refused.value.reason
        assert client.object_stores.list(region="BALANCERS") == []
        assert client.object_store_credentials.list(region="BALANCERS") == []
        assert client.object_stores.create(name="media", region="STORES").name == "media"
        balancer = client.load_balancers.create(
            name="lb", network_id=network["BALANCERS"], backends=backends, region="BALANCERS"
        )
        assert balancer.name == "lb"


@pytest.mark.parametrize("wrong", ["LON1", "1ABC", "LON-2", "X:teleport", ""])
def test_an_extra_region_must_be_new_and_name_known_features(wrong: str) -> None:
    with pytest.raises(ValueError):
        Emulator(extra_regions=[wrong])
