"""``client.regions``: the regions list read tolerantly, as every other answer."""

from __future__ import annotations

import pytest

from altostratus.client import Client, InvalidResponseError, Region

from .conftest import FakeAPI, answer

REGIONS = [
    {"code": "LON1", "name": "London 1", "country": "GB", "default": True},
    {"code": "FRA1", "name": "Frankfurt 1", "country": "DE", "default": False},
]


def test_the_regions_are_listed_without_a_region(client: Client, api: FakeAPI) -> None:
    api.queue(answer(200, REGIONS))
    regions = client.regions.list()
    assert [r.code for r in regions] == ["LON1", "FRA1"]
    assert regions[0] == Region(code="LON1", name="London 1", country="GB", default=True)
    assert api.last.method == "GET" and api.last.url.path == "/v2/regions"
    assert "region" not in api.last.url.params

    api.queue(answer(200, REGIONS))
    assert client.regions.default() == regions[0]


def test_only_the_code_is_required_and_unknown_fields_are_ignored(
    client: Client, api: FakeAPI
) -> None:
    enlarged = [{**REGIONS[1], "x_added_later": ["lb"]}, {"code": "NYC1"}]
    api.queue(answer(200, enlarged))
    far, trimmed = client.regions.list()
    assert {k: v for k, v in far.model_dump().items() if v is not None} == REGIONS[1]
    assert set(trimmed.model_dump().values()) == {"NYC1", None}
    assert trimmed.offers("object_store")  # a region answered without features offers all

    api.queue(answer(200, enlarged))
    assert client.regions.default() is None

    api.queue(answer(200, [{"name": "London 1"}]))
    with pytest.raises(InvalidResponseError, match="code: Field required"):
        client.regions.list()
    api.queue(answer(200, {"regions": REGIONS}))
    with pytest.raises(InvalidResponseError, match="a JSON array was expected"):
        client.regions.list()


def test_a_regions_features_type_capacity_and_country_name_are_read(
    client: Client, api: FakeAPI
) -> None:
    official = {
        **REGIONS[0],
        "type": "public",
        "out_of_capacity": False,
        "country_name": "United Kingdom",
        "features": {"object_store": True, "loadbalancer": False},
    }
    api.queue(answer(200, [official, {"code": "FAKE", "features": ["object_store"]}]))
    lon, fake = client.regions.list()
    assert (lon.type, lon.out_of_capacity, lon.country_name) == ("public", False, "United Kingdom")
    assert lon.offers("object_store") and not lon.offers("loadbalancer")
    assert fake.offers("object_store") and not fake.offers("kubernetes")
