"""Each provider called directly against the emulator: the whole lifecycle."""

from __future__ import annotations

from typing import Any

import pytest

from altostratus.client import Client
from altostratus.providers.object_store import ObjectStoreProvider

from .conftest import create
from .scenarios import IDS, SCENARIOS, Scenario, assert_filled, dependencies


@pytest.mark.parametrize("scenario", SCENARIOS, ids=IDS)
def test_whole_lifecycle(configured_client: Client, scenario: Scenario) -> None:
    provider = scenario.provider
    deps = dependencies(configured_client, scenario.needs)
    news: dict[str, Any] = {**scenario.inputs(deps), "__name_prefix": scenario.name}
    id_, outs, old_inputs = create(provider, news)
    assert_filled(outs, scenario.checks)

    # the same program again: no changes
    same = provider.check(old_inputs, news)
    assert provider.diff(id_, outs, same.inputs).changes is False

    # an in-place update, answered with the live state
    changed_news = {**news, **scenario.update(deps)}
    checked = provider.check(old_inputs, changed_news)
    assert not checked.failures
    diff = provider.diff(id_, outs, checked.inputs)
    assert diff.changes is True and diff.replaces == []
    updated = provider.update(id_, outs, checked.inputs).outs
    assert updated is not None
    assert provider.diff(id_, updated, checked.inputs).changes is False
    live = provider.read(id_, updated)
    assert live.id == id_ and live.outs is not None
    assert provider.diff(id_, live.outs, checked.inputs).changes is False

    # a change outside Pulumi shows on refresh
    scenario.outside(configured_client, id_, live.outs)
    refreshed = provider.read(id_, live.outs)
    key, value = scenario.drifted
    assert refreshed.outs is not None and refreshed.outs[key] == value
    assert refreshed.inputs is not None and refreshed.inputs.get(key) == value
    assert provider.diff(id_, refreshed.outs, checked.inputs).changes is True

    # delete, then delete again (gone counts as done), then read: gone
    provider.delete(id_, refreshed.outs)
    provider.delete(id_, refreshed.outs)
    gone = provider.read(id_, refreshed.outs)
    assert gone.id is None and gone.outs == {}


@pytest.mark.parametrize("scenario", [s for s in SCENARIOS if s.replace], ids=lambda s: s.name)
def test_replacement_is_listed(configured_client: Client, scenario: Scenario) -> None:
    provider = scenario.provider
    deps = dependencies(configured_client, scenario.needs)
    news: dict[str, Any] = {**scenario.inputs(deps), "__name_prefix": scenario.name}
    id_, outs, old_inputs = create(provider, news)
    checked = provider.check(old_inputs, {**news, **scenario.replace})
    diff = provider.diff(id_, outs, checked.inputs)
    assert diff.changes is True
    assert diff.replaces == sorted(scenario.replace)
    assert diff.delete_before_replace is False
    provider.delete(id_, outs)


def test_a_store_alone_is_enough_to_connect_with_boto3(configured_client: Client) -> None:
    provider = ObjectStoreProvider()
    id_, outs, _ = create(provider, {"__name_prefix": "assets", "max_size_gb": 1})
    s3 = _s3(outs)
    s3.put_object(Bucket=outs["bucket_name"], Key="hello.txt", Body=b"hello")
    body = s3.get_object(Bucket=outs["bucket_name"], Key="hello.txt")["Body"].read()
    assert body == b"hello"
    provider.delete(id_, {**outs, "force_destroy": True})


def test_a_full_store_is_refused_after_one_listing_request(
    configured_client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A delete counts the objects only up to a bound: one S3 listing, however full the store."""
    from altostratus.client._http import HTTPClient
    from altostratus.providers import object_store
    from altostratus.providers._base import ProviderError

    monkeypatch.setattr(object_store, "COUNTED_AT_MOST", 2)
    provider = ObjectStoreProvider()
    id_, outs, _ = create(provider, {"__name_prefix": "full", "max_size_gb": 1})
    s3 = _s3(outs)
    for key in ("a", "b", "c", "d", "e"):
        s3.put_object(Bucket=outs["bucket_name"], Key=key, Body=b"kept")
    listings: list[str] = []
    get_elsewhere = HTTPClient.get_elsewhere

    def counted(self: HTTPClient, url: str, headers: Any) -> Any:
        listings.append(url)
        return get_elsewhere(self, url, headers)

    monkeypatch.setattr(HTTPClient, "get_elsewhere", counted)
    with pytest.raises(ProviderError) as refused:
        provider.delete(id_, outs)
    assert "holds 2 or more objects" in str(refused.value)
    (listing,) = listings
    assert "max-keys=2" in listing
    assert len(s3.list_objects_v2(Bucket=outs["bucket_name"])["Contents"]) == 5
    provider.delete(id_, {**outs, "force_destroy": True})


def _s3(outs: dict[str, Any]) -> Any:
    """A boto3 client of the store's outputs: its endpoint and its owner's key pair."""
    boto3 = pytest.importorskip("boto3")
    return boto3.client(
        "s3",
        endpoint_url=outs["endpoint_url"],
        aws_access_key_id=outs["access_key_id"],
        aws_secret_access_key=outs["secret_access_key"],
        region_name="us-east-1",
    )
