"""Fixtures for the providers' tests: providers configured for the session's emulator."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from pulumi.dynamic import Config, ConfigureRequest

from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.providers._base import Provider
from altostratus.providers.network import NetworkProvider
from tests.support.engine import Engine, ProviderProcess


def stack_config(emulator: Emulator, **extra: str) -> dict[str, str]:
    return {
        "altostratus:apiKey": emulator.api_key,
        "altostratus:apiUrl": emulator.api_url,
        **extra,
    }


def configure(provider: Provider, config: dict[str, str]) -> Provider:
    provider.configure(ConfigureRequest(Config(raw_config=config, project_name="test")))
    return provider


@pytest.fixture(scope="module")
def engine(emulator: Emulator) -> Iterator[Engine]:
    """A provider process, configured as the engine configures it, for the test module."""
    process = ProviderProcess(stack_config(emulator))
    yield Engine(process)
    process.close()


@pytest.fixture
def api(fresh_emulator: Emulator) -> Iterator[Client]:
    """A reset emulator, the providers configured for it, and a client to act outside Pulumi."""
    configure(NetworkProvider(), stack_config(fresh_emulator))
    with Client(api_key=fresh_emulator.api_key, api_url=fresh_emulator.api_url) as client:
        yield client


def create(provider: Provider, news: dict[str, Any]) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """Check and create, as the engine does; returns the id, the outputs and the inputs."""
    checked = provider.check({}, news)
    assert not checked.failures, [(f.property, f.reason) for f in checked.failures]
    result = provider.create(checked.inputs)
    assert result.outs is not None
    return result.id, result.outs, checked.inputs
