"""schemathesis over the emulator's own OpenAPI document.

Every operation gets a bounded, derandomized run of positive and negative examples, sent with
the emulator's key to a reset emulator that holds one live record of each kind. Checked: no 5xx,
status codes, content types, headers and bodies as documented, and every 4xx in the decisions'
error format.

Two of schemathesis's default checks are left out on purpose. ``positive_data_acceptance``
expects every schema-valid request to succeed, but the document types regions, CIDRs, ports and
URLs as plain text, so the 400s the service owes such values would count as failures.
``negative_data_rejection`` expects unknown query and body fields to be refused, while the
service ignores them (the decisions' "unknown ones are ignored").
"""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import (
    allow_header_conformance,
    negative_data_rejection,
    positive_data_acceptance,
)

from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.emulator.openapi import document

BACKEND = {"ip": "10.9.0.10", "protocol": "TCP", "source_port": 80, "target_port": 8080}
PATH_KINDS = {"firewall_id": "firewalls", "rule_id": "rules"}
#: The /api/v1 path parameters: the emulator's organization (its namespace), a live record's name.
PATH_NAMES = {"ns": "default", "org": "default", "name": "fuzz"}
#: The spec's paths where a fixed segment stands where another path has a parameter: GET
#: /api/v1/application-deployment/deploy lists the namespace "deploy", so a 405 there rightly
#: allows GET, which the document lists under /application-deployment/{ns}.
OVERLAPPING = {"/api/v1/application-deployment/deploy"}

schema = schemathesis.openapi.from_dict(document())
schema.config.generation.update(with_security_parameters=False)


def test_the_fuzzed_document_is_the_one_the_emulator_serves(emulator: Emulator) -> None:
    with urllib.request.urlopen(f"{emulator.api_url}/openapi.json", timeout=10) as answer:
        assert json.loads(answer.read()) == json.loads(json.dumps(document()))


@pytest.fixture
def live_ids(fresh_emulator: Emulator) -> dict[str, str]:
    """One record of each kind (quota raised so creates are not refused for quota)."""
    emulator = fresh_emulator
    emulator.set_quota(
        network_count=1000, public_ip_address=1000, security_group=1000, loadbalancer_count=1000
    )
    with Client(api_key=emulator.api_key, api_url=emulator.api_url) as api:
        network = api.networks.create(label="fuzz", cidr_v4="10.9.0.0/24")
        firewall = api.firewalls.create(name="fuzz", network_id=network.id)
        rule = api.firewall_rules.create(firewall.id, protocol="tcp", start_port="22")
        balancer = api.load_balancers.create(name="fuzz", network_id=network.id, backends=[BACKEND])
        ip = api.reserved_ips.create(name="fuzz")
        credential = api.object_store_credentials.create(name="fuzz")
        store = api.object_stores.create(name="fuzz")
        webhook = api.webhooks.create(url="https://hooks.example.com/fuzz")
        # The platform's and the applications' records, each named fuzz.
        api.platform_environments.create("default", "fuzz", clusters=["lon1-managed"])
        api.platform_applications.register(
            "default", "fuzz", repository="https://example.com/fuzz.git"
        )
        api.application_deployments.deploy("default", "fuzz", environment="fuzz")
        api.apps.deploy("default", "fuzz", runtime="python", digest="ab" * 32)
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


def steer(case: Any, live_ids: dict[str, str]) -> None:
    """Point about half the generated ids at live records and half the regions at ``lon1``, so
    answers past 404 and ``region_unavailable`` are checked too. The choice depends only on the
    generated value, so runs stay deterministic."""
    segments = case.path.split("/")
    for name, value in list((case.path_parameters or {}).items()):
        if len(str(value)) % 2 == 0 and name in PATH_NAMES:
            case.path_parameters[name] = PATH_NAMES[name]
        elif len(str(value)) % 2 == 0:
            kind = PATH_KINDS.get(name) or segments[segments.index("{id}") - 1]
            case.path_parameters[name] = live_ids[kind]
    if isinstance(case.query, dict) and len(str(case.query.get("region", "x"))) % 2 == 0:
        case.query["region"] = "lon1"
        if isinstance(case.body, dict) and "region" in case.body:
            case.body["region"] = "LON1"


@pytest.mark.slow
@schema.parametrize()
@settings(
    max_examples=15,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_every_operation_answers_as_documented(
    case: Any, fresh_emulator: Emulator, live_ids: dict[str, str]
) -> None:
    steer(case, live_ids)
    response = case.call_and_validate(
        base_url=fresh_emulator.api_url,
        headers={"Authorization": f"bearer {fresh_emulator.api_key}"},
        excluded_checks=[
            positive_data_acceptance,
            negative_data_rejection,
            *([allow_header_conformance] if case.path in OVERLAPPING else []),
        ],
    )
    if 400 <= response.status_code < 500:
        body = response.json()
        assert set(body) == {"result", "code", "reason"}, body
        assert body["result"] == "failed" and body["code"] and body["reason"], body
