"""No API key in a stack's state; keys and secrets are secret outputs; no log line or error
message of the library, in this process or in the provider process, shows a key or a secret."""

from __future__ import annotations

import base64
import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import dill
import grpc
import pulumi
import pulumi.dynamic
import pytest
from google.protobuf import json_format

import altostratus.providers as alto
from altostratus.client import Client
from altostratus.client.errors import AltostratusError
from altostratus.emulator import Emulator
from altostratus.providers._resource import AltostratusResource
from altostratus.providers.object_store_credential import ObjectStoreCredentialProvider
from altostratus.providers.webhook import WebhookProvider
from tests.support.engine import Engine, ProviderProcess, State, to_struct
from tests.support.provider_config import stack_config

from .stack import STACK, Outputs

ACCESS_KEY = "AKTESTSECRETKEY00001"
SECRET_KEY = "sEcReT/kEy+0123456789abcdefghijklmnopqrs"
WEBHOOK_SECRET = "whsec-0123456789abcdef0123456789abcdef"

RESOURCES: dict[str, type[AltostratusResource[Any]]] = {
    "network": alto.Network,
    "firewall": alto.Firewall,
    "rule": alto.FirewallRule,
    "balancer": alto.LoadBalancer,
    "address": alto.ReservedIp,
    "credential": alto.ObjectStoreCredential,
    "store": alto.ObjectStore,
    "webhook": alto.Webhook,
}
REQUIRED_SECRETS = {
    "credential": {"access_key_id", "secret_access_key_id", "secret_access_key"},
    "store": {"access_key_id", "secret_access_key", "owner_info"},
    "webhook": {"secret"},
}


@pytest.fixture
def logged_engine(fresh_emulator: Emulator, tmp_path: Path) -> Iterator[tuple[Engine, Path]]:
    stderr = tmp_path / "provider.stderr"
    process = ProviderProcess(stack_config(fresh_emulator), stderr=stderr)
    yield Engine(process), stderr
    process.close()


def state_text(state: State) -> str:
    props = {"inputs": state.inputs, "outputs": state.outputs}
    return json.dumps(json_format.MessageToDict(to_struct(props)))


def up_stack(engine: Engine) -> dict[str, State]:
    states: dict[str, State] = {}
    for member in STACK:
        outs: Outputs = {name: {**s.outputs, "__id": s.id} for name, s in states.items()}
        states[member.name] = engine.up(
            member.provider, member.name, member.inputs(outs), None
        ).state
    return states


def secrets_of(states: dict[str, State]) -> set[str]:
    credential, store = states["credential"].outputs, states["store"].outputs
    found = {
        credential["access_key_id"],
        credential["secret_access_key"],
        store["access_key_id"],
        store["secret_access_key"],
        states["webhook"].outputs["secret"],
    }
    assert all(found), found
    return found


def test_a_stack_state_holds_no_api_key_and_lists_every_secret_output(
    logged_engine: tuple[Engine, Path], fresh_emulator: Emulator
) -> None:
    engine, _ = logged_engine
    states = up_stack(engine)
    secrets = secrets_of(states)
    key = fresh_emulator.api_key
    for name, state in states.items():
        assert key not in state_text(state), name
        provider = base64.b64decode(state.outputs["__provider"])
        assert key.encode() not in provider, name
        assert not any(secret.encode() in provider for secret in secrets), name
        listed = set(RESOURCES[name]._secret_outputs)
        assert REQUIRED_SECRETS.get(name, set()) <= listed, name
        for output, value in state.outputs.items():
            if any(secret in json.dumps(value) for secret in secrets):
                assert output in listed, (name, output)


@pytest.mark.parametrize("name", sorted(REQUIRED_SECRETS))
def test_resource_classes_register_their_secret_outputs(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the class hands to Pulumi: additional_secret_outputs naming every secret."""
    registered: list[pulumi.ResourceOptions] = []

    def capture(self: Any, kind: str, name: str, props: Any, opts: Any = None) -> None:
        registered.append(opts)

    monkeypatch.setattr(pulumi.CustomResource, "__init__", capture)
    RESOURCES[name](name)
    assert REQUIRED_SECRETS[name] <= set(registered[0].additional_secret_outputs or [])


@pytest.mark.parametrize("name", sorted(RESOURCES))
def test_the_state_keeps_each_provider_in_plain_text_as_a_reference_to_its_class(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pickled provider (``__provider``, in each resource's inputs and outputs) is its class's
    module and name, no setting and no key: the SDK stores it in plain text, not as a secret the
    engine encrypts twice per resource at every checkpoint."""
    registered: list[dict[str, Any]] = []

    def capture(self: Any, kind: str, name: str, props: Any, opts: Any = None) -> None:
        registered.append(props)

    monkeypatch.setattr(pulumi.CustomResource, "__init__", capture)
    RESOURCES[name](name)
    provider = registered[0]["__provider"]
    assert isinstance(provider, str), provider
    pickled = base64.b64decode(provider)
    assert type(dill.loads(pickled)) is RESOURCES[name]._provider_class
    assert len(pickled) < 200


def test_logs_and_errors_show_no_key_or_secret(
    logged_engine: tuple[Engine, Path],
    fresh_emulator: Emulator,
    caplog: pytest.LogCaptureFixture,
) -> None:
    engine, stderr = logged_engine
    emulator = fresh_emulator
    caplog.set_level(logging.DEBUG)
    messages: list[str] = []
    credential = ObjectStoreCredentialProvider()
    webhook = WebhookProvider()
    explicit = {"access_key_id": ACCESS_KEY, "secret_access_key_id": SECRET_KEY}

    # Through the provider process: faults on the way, then refusals and failures.
    emulator.add_fault(method="POST", path_prefix="/v2/objectstore", status=503, after_apply=True)
    engine.up(credential, "cred", explicit, None)
    emulator.add_fault(method="POST", path_prefix="/v2/webhooks", drop_connection=True)
    engine.up(webhook, "hook", {"url": "https://h.example/", "secret": WEBHOOK_SECRET}, None)
    emulator.add_fault(method="POST", path_prefix="/v2/webhooks", status=500, count=10)
    for provider, name, inputs in [
        (credential, "cred-again", explicit),
        (webhook, "hook-failing", {"url": "https://h.example/2", "secret": WEBHOOK_SECRET}),
    ]:
        with pytest.raises(grpc.RpcError) as raised:
            engine.up(provider, name, inputs, None)
        messages.append(str(raised.value.details()))

    # In this process: the client's retries and errors, with the right key and a wrong one.
    with Client(api_key=emulator.api_key, api_url=emulator.api_url) as api:
        emulator.add_fault(method="GET", path_prefix="/v2/objectstore", status=503, count=2)
        assert [c.access_key_id for c in api.object_store_credentials.list()] == [ACCESS_KEY]
        emulator.add_fault(method="POST", path_prefix="/v2/objectstore", status=503)
        for call in (
            lambda: api.object_store_credentials.create(
                name="other", access_key_id=ACCESS_KEY, secret_access_key_id=SECRET_KEY
            ),
            lambda: api.object_store_credentials.create(name="x", secret_access_key_id="short"),
            lambda: api.webhooks.update("no-such-id", secret=WEBHOOK_SECRET),
        ):
            with pytest.raises(AltostratusError) as failed:
                call()
            messages.append(str(failed.value))
    wrong_key = "sk-wrong-key-0123456789abcdef"
    with Client(api_key=wrong_key, api_url=emulator.api_url) as stranger:
        with pytest.raises(AltostratusError) as refused:
            stranger.webhooks.list()
        messages.append(str(refused.value))
        assert wrong_key not in repr(stranger) + repr(stranger.settings)

    engine.process.close()
    everything = "\n".join([*messages, caplog.text, stderr.read_text(errors="replace")])
    assert any(r.name == "altostratus.client" for r in caplog.records), "no retry was logged"
    for secret in (emulator.api_key, wrong_key, ACCESS_KEY, SECRET_KEY, WEBHOOK_SECRET):
        assert secret not in everything, secret
