"""``client.regions``: the regions list read tolerantly, as every other answer."""

from __future__ import annotations

import pytest

from altostratus.client import Client, InvalidResponseError, Region

from .conftest import FakeAPI, answer

REGIONS = [
    {"code": "LON1", "name": "London 1", "country": "GB", "default": True},
    {"code": "FRA1", "name": "Frankfurt 1", "country": "DE", "default": False},
]


def test_the_regions_are_listed_without_a_region(fake_client: Client, fake_api: FakeAPI) -> None:
    fake_api.queue(answer(200, REGIONS))
    regions = fake_client.regions.list()
    assert [r.code for r in regions] == ["LON1", "FRA1"]
    assert regions[0] == Region(code="LON1", name="London 1", country="GB", default=True)
    assert fake_api.last.method == "GET" and fake_api.last.url.path == "/v2/regions"
    assert "region" not in fake_api.last.url.params

    fake_api.queue(answer(200, REGIONS))
    assert fake_client.regions.default() == regions[0]


def test_only_the_code_is_required_and_unknown_fields_are_ignored(
    fake_client: Client, fake_api: FakeAPI
) -> None:
    enlarged = [{**REGIONS[1], "x_added_later": ["lb"]}, {"code": "NYC1"}]
    fake_api.queue(answer(200, enlarged))
    far, trimmed = fake_client.regions.list()
    assert {k: v for k, v in far.model_dump().items() if v is not None} == REGIONS[1]
    assert set(trimmed.model_dump().values()) == {"NYC1", None}
    assert trimmed.offers("object_store")  # a region answered without features offers all

    fake_api.queue(answer(200, enlarged))
    assert fake_client.regions.default() is None

    fake_api.queue(answer(200, [{"name": "London 1"}]))
    with pytest.raises(InvalidResponseError, match="code: Field required"):
        fake_client.regions.list()
    fake_api.queue(answer(200, {"regions": REGIONS}))
    with pytest.raises(InvalidResponseError, match="a JSON array was expected"):
        fake_client.regions.list()


def test_a_regions_features_type_capacity_and_country_name_are_read(
    fake_client: Client, fake_api: FakeAPI
) -> None:
    official = {
        **REGIONS[0],
        "type": "public",
        "out_of_capacity": False,
        "country_name": "United Kingdom",
        "features": {"object_store": True, "loadbalancer": False},
    }
    fake_api.queue(answer(200, [official, {"code": "FAKE", "features": ["object_store"]}]))
    lon, fake = fake_client.regions.list()
    assert (lon.type, lon.out_of_capacity, lon.country_name) == ("public", False, "United Kingdom")
    assert lon.offers("object_store") and not lon.offers("loadbalancer")
    assert fake.offers("object_store") and not fake.offers("kubernetes")
