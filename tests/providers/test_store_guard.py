"""``force_destroy=False`` fails closed: a store whose objects cannot be counted is kept, and
the delete (or a replacement's delete) is refused in one line saying why and how to force it."""

from __future__ import annotations

from typing import Any

import pytest

from altostratus.client import Client
from altostratus.client.object_stores import ObjectStoresAPI
from altostratus.emulator import Emulator
from altostratus.providers._base import ProviderError
from altostratus.providers.object_store import ObjectStoreProvider
from tests.support.fake_s3 import HTML, NO_BUCKET, NO_NAMESPACE, REFUSED, fake_s3
from tests.support.provider_config import stack_config

from .conftest import configure, create


def _store(api: Client) -> tuple[ObjectStoreProvider, str, dict[str, Any]]:
    provider = ObjectStoreProvider()
    id_, outs, _ = create(provider, {"__name_prefix": "kept", "max_size_gb": 1})
    return provider, id_, outs


def _refused(provider: ObjectStoreProvider, id_: str, outs: dict[str, Any]) -> str:
    with pytest.raises(ProviderError) as refused:
        provider.delete(id_, outs)
    message = str(refused.value)
    assert "\n" not in message
    assert f"cannot tell whether the object store {id_} is empty" in message
    assert "set force_destroy=True" in message
    return message


def _still_there(api: Client, id_: str) -> None:
    assert [store.id for store in api.object_stores.list()] == [id_]


@pytest.mark.parametrize(
    ("status", "body", "content_type", "why"),
    [
        (200, HTML, "text/html", "not an S3 ListBucketResult (its root is <html>)"),
        (200, NO_NAMESPACE, "application/xml", "not an S3 ListBucketResult"),
        (403, REFUSED, "application/xml", "403 AccessDenied"),
        (404, NO_BUCKET, "application/xml", "404 NoSuchBucket"),
    ],
    ids=["html", "xml-without-namespace", "refused", "no-such-bucket"],
)
def test_a_store_whose_listing_is_not_s3s_is_kept(
    configured_client: Client,
    fresh_emulator: Emulator,
    monkeypatch: pytest.MonkeyPatch,
    status: int,
    body: bytes,
    content_type: str,
    why: str,
) -> None:
    provider, id_, outs = _store(configured_client)
    with fake_s3(status, body, content_type) as s3_url:
        # The API's answers name the fake S3 as the store's endpoint.
        monkeypatch.setattr(fresh_emulator.state.settings, "s3_url", s3_url)
        assert why in _refused(provider, id_, outs)
    _still_there(configured_client, id_)


def test_a_store_whose_answer_names_no_endpoint_is_kept(
    configured_client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    provider, id_, outs = _store(configured_client)
    get = ObjectStoresAPI.get

    def without_endpoint(self: ObjectStoresAPI, *args: Any, **kwargs: Any) -> Any:
        return get(self, *args, **kwargs).model_copy(update={"objectstore_endpoint": None})

    monkeypatch.setattr(ObjectStoresAPI, "get", without_endpoint)
    assert "names no S3 endpoint" in _refused(provider, id_, outs)
    monkeypatch.undo()
    _still_there(configured_client, id_)


def test_a_store_not_ready_is_kept(configured_client: Client, fresh_emulator: Emulator) -> None:
    provider = ObjectStoreProvider()
    checked = provider.check({}, {"__name_prefix": "young", "max_size_gb": 1})
    # Provisioning runs at a thousandth of real time: the store stays creating for this test.
    fresh_emulator.clock.time_scale = 0.001
    try:
        store = configured_client.object_stores.create(name=checked.inputs["name"], max_size_gb=1)
        assert store.status == "creating"
        props = {**checked.inputs, "region": "LON1"}
        assert "(it is creating, not ready)" in _refused(provider, store.id, props)
        _still_there(configured_client, store.id)
    finally:
        fresh_emulator.clock.time_scale = 1.0


def test_force_destroy_deletes_a_store_whose_listing_fails(
    configured_client: Client, fresh_emulator: Emulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    provider, id_, outs = _store(configured_client)
    with fake_s3(200, HTML, "text/html") as s3_url:
        monkeypatch.setattr(fresh_emulator.state.settings, "s3_url", s3_url)
        provider.delete(id_, {**outs, "force_destroy": True})
    assert configured_client.object_stores.list() == []


def test_an_unfinished_store_is_deleted_without_counting_when_its_create_gives_up(
    configured_client: Client, fresh_emulator: Emulator
) -> None:
    """A create that gives up waiting for readiness deletes the store it made (its objects
    cannot be counted, but nothing of the user's can be in a store nobody saw ready), so that
    nothing is left outside the stack; the error says so in one line."""
    provider = configure(
        ObjectStoreProvider(),
        stack_config(fresh_emulator, **{"altostratus:waitTimeoutSeconds": "0.05"}),
    )
    checked = provider.check({}, {"__name_prefix": "slow", "max_size_gb": 1})
    fresh_emulator.clock.time_scale = 0.001
    try:
        with pytest.raises(ProviderError) as failed:
            provider.create(checked.inputs)
    finally:
        fresh_emulator.clock.time_scale = 1.0
    message = str(failed.value)
    assert "\n" not in message and "not ready after" in message
    assert "the unfinished object store" in message and message.endswith("was deleted")
    assert [s.status for s in configured_client.object_stores.list()] in ([], ["deleting"])
