"""Tolerant reading, strict writing."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from altostratus.client import Client, models
from altostratus.client.errors import InvalidResponseError

from .conftest import FakeAPI, answer
from .records import BACKEND, CREDENTIAL, FIREWALL, LOAD_BALANCER, RULE, WEBHOOK


def test_backend_with_an_unknown_field_is_refused_before_sending(
    fake_client: Client, fake_api: FakeAPI
) -> None:
    with pytest.raises(ValidationError):
        fake_client.load_balancers.create(
            name="x", network_id="n1", backends=[{**BACKEND, "weight": 3}]
        )
    assert fake_api.requests == []


def test_answers_with_unknown_fields_are_read(fake_client: Client, fake_api: FakeAPI) -> None:
    extra = {"surprise": 1}
    lb = LOAD_BALANCER | extra | {"backends": [BACKEND | extra]}
    fake_api.queue(answer(200, lb))
    assert fake_client.load_balancers.get("lb1").backends == [
        models.LoadBalancerBackendRecord(**BACKEND)
    ]


def test_an_answer_of_the_wrong_shape_is_an_invalid_response_error(
    fake_client: Client, fake_api: FakeAPI
) -> None:
    fake_api.queue(answer(200, {"name": "net-abc", "label": "backend"}))
    with pytest.raises(
        InvalidResponseError, match=r"invalid_response: unexpected answer, id: Field required"
    ):
        fake_client.networks.get("n1")


def test_secrets_stay_out_of_model_reprs() -> None:
    assert WEBHOOK["secret"] not in repr(models.Webhook.model_validate(WEBHOOK))
    assert CREDENTIAL["secret_access_key_id"] not in repr(
        models.ObjectStoreCredential.model_validate(CREDENTIAL)
    )


def test_lenient_field_forms_are_read() -> None:
    rule = models.FirewallRule.model_validate(RULE | {"start_port": 443, "end_port": 443})
    assert (rule.start_port, rule.end_port) == ("443", "443")
    assert models.Firewall.model_validate(FIREWALL | {"default": True}).default == "true"


def test_records_carry_the_names_the_resources_output() -> None:
    network = models.Network(id="n1", cidr="10.1.0.0/24")
    assert network.cidr_v4 == "10.1.0.0/24"
    store = models.ObjectStore(id="s1", objectstore_endpoint="https://s3.example.com/files-ab12cd")
    assert (store.bucket_name, store.endpoint_url) == ("files-ab12cd", "https://s3.example.com")
    assert models.ObjectStore(id="s2").bucket_name is None
    # Read from the answer, never written back: a request model has no such fields.
    assert "cidr_v4" not in network.model_dump() and "bucket_name" not in store.model_dump()
