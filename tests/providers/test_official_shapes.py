"""What the service's official clients update in place, updated in place through the provider
process (`python -m pulumi.dynamic`): the same record, the same public address."""

from __future__ import annotations

from typing import Any

from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.providers.firewall import FirewallProvider
from altostratus.providers.load_balancer import LoadBalancerProvider
from altostratus.providers.network import NetworkProvider
from altostratus.providers.object_store import ObjectStoreProvider
from altostratus.providers.object_store_credential import ObjectStoreCredentialProvider
from tests.support.answer_shapes import shaping_proxy
from tests.support.engine import Engine, ProviderProcess
from tests.support.provider_config import stack_config

from .scenarios import BACKEND, dependencies


def _balancer(network_id: str, **extra: Any) -> dict[str, Any]:
    return {"network_id": network_id, "backends": [BACKEND], **extra}


def test_balancer_limits_and_affinity_timeout_update_in_place(
    configured_client: Client, provider_engine: Engine
) -> None:
    deps = dependencies(configured_client, ("network_id",))
    provider = LoadBalancerProvider()
    created = provider_engine.up(provider, "front", _balancer(deps["network_id"]), None)
    changed = {"max_concurrent_requests": 500, "session_affinity_config_timeout": 60}
    updated = provider_engine.up(
        provider, "front", _balancer(deps["network_id"], **changed), created.state
    )
    assert updated.operation == "update" and updated.state.id == created.state.id
    live = configured_client.load_balancers.get(created.state.id)
    assert (live.max_concurrent_requests, live.session_affinity_config_timeout) == (500, 60)
    assert live.public_ip == created.state.outputs["public_ip"]
    assert updated.state.outputs["max_concurrent_requests"] == 500


def test_balancer_firewall_and_health_check_port_are_kept(
    configured_client: Client, provider_engine: Engine
) -> None:
    deps = dependencies(configured_client, ("network_id", "firewall_id"))
    provider = LoadBalancerProvider()
    checked = {**BACKEND, "health_check_port": 8081}
    inputs = {**_balancer(deps["network_id"]), "backends": [checked]}
    created = provider_engine.up(
        provider, "front", {**inputs, "firewall_id": deps["firewall_id"]}, None
    )
    live = configured_client.load_balancers.get(created.state.id)
    assert live.firewall_id == deps["firewall_id"]
    assert live.backends is not None and live.backends[0].health_check_port == 8081
    assert (
        provider_engine.up(
            provider, "front", {**inputs, "firewall_id": deps["firewall_id"]}, created.state
        ).operation
        == "same"
    )
    other = configured_client.firewalls.create(name="other", network_id=deps["network_id"])
    replaced = provider_engine.up(
        provider, "front", {**inputs, "firewall_id": other.id}, created.state
    )
    assert replaced.operation == "replace"
    assert list(replaced.diff.replaces) == ["firewall_id"]  # type: ignore[union-attr]


def test_network_name_servers_update_in_place(
    configured_client: Client, provider_engine: Engine
) -> None:
    provider = NetworkProvider()
    inputs = {"label": "app", "cidr_v4": "10.30.0.0/24", "nameservers_v4": ["1.1.1.1"]}
    created = provider_engine.up(provider, "app", inputs, None)
    changed = {**inputs, "nameservers_v4": ["8.8.8.8", "8.8.4.4"]}
    updated = provider_engine.up(provider, "app", changed, created.state)
    assert updated.operation == "update" and updated.state.id == created.state.id
    assert configured_client.networks.get(created.state.id).nameservers_v4 == ["8.8.8.8", "8.8.4.4"]
    assert provider_engine.up(provider, "app", changed, updated.state).operation == "same"


def test_a_firewall_on_the_default_network_renamed_through_the_official_answer(
    fresh_emulator: Emulator, configured_client: Client
) -> None:
    """A rename answered ``{"result": "success"}`` alone, through the provider process."""
    default = next(n for n in configured_client.networks.list() if n.default)
    with shaping_proxy(fresh_emulator.api_url, "official") as proxy:
        config = {**stack_config(fresh_emulator), "altostratus:apiUrl": proxy.url}
        process = ProviderProcess(config)
        try:
            engine = Engine(process)
            provider = FirewallProvider()
            created = engine.up(provider, "edge", {"name": "edge"}, None)
            assert created.state.outputs["network_id"] == default.id
            renamed = engine.up(provider, "edge", {"name": "edge2"}, created.state)
            assert renamed.operation == "update" and proxy.shaped > 0
            assert renamed.state.outputs["name"] == "edge2"
            assert engine.up(provider, "edge", {"name": "edge2"}, renamed.state).operation == "same"
        finally:
            process.close()
    assert configured_client.firewalls.get(created.state.id).name == "edge2"


def test_a_credential_with_an_access_key_the_terraform_tests_choose(
    configured_client: Client, provider_engine: Engine
) -> None:
    credential = ObjectStoreCredentialProvider()
    inputs = {"name": "tf", "access_key_id": "my-access-key"}
    created = provider_engine.up(credential, "tf", inputs, None)
    assert created.state.outputs["access_key_id"] == "my-access-key"
    store = provider_engine.up(
        ObjectStoreProvider(), "assets", {"access_key_id": "my-access-key"}, None
    )
    owner = configured_client.object_stores.get(store.state.id).owner_info
    assert owner is not None and owner.access_key_id == "my-access-key"
