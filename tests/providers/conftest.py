"""Fixtures for the providers' tests: providers configured for the session's emulator."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from pulumi.dynamic import Config, ConfigureRequest

from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.providers._base import Provider
from altostratus.providers.network import NetworkProvider
from tests.support.provider_config import stack_config


def configure(provider: Provider, config: dict[str, str]) -> Provider:
    provider.configure(ConfigureRequest(Config(raw_config=config, project_name="test")))
    return provider


@pytest.fixture
def configured_client(client: Client, fresh_emulator: Emulator) -> Client:
    """``client``, with this process's providers configured for the same freshly reset emulator
    (as the engine configures its provider process), for tests that call them in process."""
    configure(NetworkProvider(), stack_config(fresh_emulator))
    return client


@pytest.fixture
def removal_takes(fresh_emulator: Emulator) -> Iterator[Callable[[float], None]]:
    """Sets the emulator's ``delete_seconds`` for the test."""
    settings = fresh_emulator.state.settings

    def set_seconds(seconds: float) -> None:
        settings.delete_seconds = seconds

    yield set_seconds
    settings.delete_seconds = 0.0


def create(provider: Provider, news: dict[str, Any]) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """Check and create, as the engine does; returns the id, the outputs and the inputs."""
    checked = provider.check({}, news)
    assert not checked.failures, [(f.property, f.reason) for f in checked.failures]
    result = provider.create(checked.inputs)
    assert result.outs is not None
    return result.id, result.outs, checked.inputs
