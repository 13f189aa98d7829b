"""schemathesis over the emulator's own OpenAPI document."""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.emulator.openapi import document

from .control import default_account_id, set_limits

BACKEND = {"ip": "10.9.0.10", "protocol": "TCP", "source_port": 80, "target_port": 8080}


schema = schemathesis.openapi.from_dict(document())


@pytest.fixture
def live_ids(fresh_emulator: Emulator) -> dict[str, str]:
    emulator = fresh_emulator
    set_limits(emulator, default_account_id(emulator), network_count_limit=1000)
    with Client(api_key=emulator.api_key, api_url=emulator.api_url) as api:
        network = api.networks.create(label="fuzz", cidr_v4="10.9.0.0/24")
        firewall = api.firewalls.create(name="fuzz", network_id=network.id)
        rule = api.firewall_rules.create(firewall.id, protocol="tcp", start_port="22")
        balancer = api.load_balancers.create(name="fuzz", network_id=network.id, backends=[BACKEND])
        ip = api.reserved_ips.create(name="fuzz")
        credential = api.object_store_credentials.create(name="fuzz")
        store = api.object_stores.create(name="fuzz")
        webhook = api.webhooks.create(url="https://hooks.example.com/fuzz")
    return {
        "networks": network.id,
        "firewalls": firewall.id,
        "rules": rule.id,
        "loadbalancers": balancer.id,
        "ips": ip.id,
        "credentials": credential.id,
        "objectstores": store.id,
        "webhooks": webhook.id,
    }


@schema.parametrize()
@settings(
    max_examples=20,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_every_operation_answers_as_documented(
    case: Any, fresh_emulator: Emulator, live_ids: dict[str, str]
) -> None:
    response = case.call_and_validate(
        base_url=fresh_emulator.api_url,
        headers={"Authorization": f"bearer {fresh_emulator.api_key}"},
        excluded_checks=[positive_data_acceptance],
    )
    if 400 <= response.status_code < 500:
        body = response.json()
        assert set(body) == {"result", "code", "reason"}
        assert body["result"] == "failed"
