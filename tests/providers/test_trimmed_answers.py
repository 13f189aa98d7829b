"""Providers against a service whose answers carry nothing but ids.

Every answer of the emulator passes through a transport that trims each record to its ``id``.
A provider still creates, reads, updates and deletes (an object store once ``force_destroy`` is
set: without its S3 endpoint its objects cannot be counted): what the service leaves out is an
output of None (or the input the program gave), never a failed ``pulumi up``.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.providers import _config
from altostratus.providers._base import ProviderError
from altostratus.providers._inputs import NAME_PREFIX
from altostratus.providers.object_store import ObjectStoreProvider
from altostratus.providers.object_store_credential import ObjectStoreCredentialProvider

from .conftest import create
from .scenarios import IDS, SCENARIOS, Scenario, dependencies


def trimmed(value: Any) -> Any:
    """Every object that has an id reduced to its id, at any depth; the rest kept."""
    if isinstance(value, dict):
        if "id" in value:
            return {"id": value["id"]}
        return {key: trimmed(item) for key, item in value.items()}
    if isinstance(value, list):
        return [trimmed(item) for item in value]
    return value


class Trimming(httpx.BaseTransport):
    """Forwards to the service and trims the records of its JSON answers (of ``only`` the
    requests of that method, when given)."""

    def __init__(self, only: str | None = None) -> None:
        self.inner = httpx.HTTPTransport()
        self.trimmed = 0
        self.only = only

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self.inner.handle_request(request)
        content = response.read()
        response.close()
        if self.only is not None and request.method != self.only:
            return httpx.Response(response.status_code, content=content)
        try:
            body = json.loads(content)
        except ValueError:
            return httpx.Response(response.status_code, content=content)
        if body != trimmed(body):
            self.trimmed += 1
        return httpx.Response(response.status_code, json=trimmed(body))

    def close(self) -> None:
        self.inner.close()


@pytest.fixture
def trimming(
    configured_client: Client, fresh_emulator: Emulator, monkeypatch: pytest.MonkeyPatch
) -> Trimming:
    """The providers' client, talking to the emulator through the trimming transport."""
    transport = Trimming()
    client = Client(fresh_emulator.api_key, fresh_emulator.api_url, transport=transport)
    monkeypatch.setattr(_config, "_client", client)
    return transport


@pytest.mark.parametrize("scenario", SCENARIOS, ids=IDS)
def test_a_provider_copes_with_answers_that_carry_only_ids(
    configured_client: Client, trimming: Trimming, scenario: Scenario
) -> None:
    provider = scenario.provider
    deps = dependencies(configured_client, scenario.needs)
    news: dict[str, Any] = {**scenario.inputs(deps), NAME_PREFIX: scenario.name}
    id_, outs, inputs = create(provider, news)
    assert trimming.trimmed > 0

    # What the service left out is None; what the program gave stays.
    given = {field.name for field in provider.fields} | {NAME_PREFIX}
    assert {k: v for k, v in outs.items() if k not in given and v is not None} == {}
    assert {k: outs[k] for k in inputs} == inputs
    assert provider.diff(id_, outs, provider.check(inputs, news).inputs).changes is False

    checked = provider.check(inputs, {**news, **scenario.update(deps)})
    updated = provider.update(id_, outs, checked.inputs).outs
    assert updated is not None
    assert {k: v for k, v in updated.items() if k not in given and v is not None} == {}

    live = provider.read(id_, updated)
    assert live.id == id_ and live.outs is not None

    if isinstance(provider, ObjectStoreProvider):
        # A store answered without its S3 endpoint cannot have its objects counted: its
        # delete is refused until force_destroy says its objects may go.
        with pytest.raises(ProviderError, match="names no S3 endpoint"):
            provider.delete(id_, live.outs)
        live.outs["force_destroy"] = True
    provider.delete(id_, live.outs)
    assert provider.read(id_, live.outs).id is None


def test_a_create_answered_with_only_the_id_stores_the_records_secret(
    configured_client: Client, fresh_emulator: Emulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The answer names no credential (it carries no name): it is read back by its id, and the
    state holds what the service has, its generated secret included."""
    transport = Trimming(only="POST")
    client = Client(fresh_emulator.api_key, fresh_emulator.api_url, transport=transport)
    monkeypatch.setattr(_config, "_client", client)
    id_, outs, _ = create(ObjectStoreCredentialProvider(), {NAME_PREFIX: "thin"})
    assert transport.trimmed == 1
    [credential] = configured_client.object_store_credentials.list()
    assert id_ == credential.id
    assert outs["secret_access_key"] == credential.secret_access_key_id
    assert outs["access_key_id"] == credential.access_key_id
