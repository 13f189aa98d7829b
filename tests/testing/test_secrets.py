"""Secrets in the stand-in's state: marked by key and by ``additional_secret_outputs``."""

from __future__ import annotations

from collections.abc import Callable

import pulumi

import altostratus as alto
from altostratus.testing import Result, Stack

SECRET_FIELDS = {
    "ObjectStoreCredential:ci": ("access_key_id", "secret_access_key"),
    "ObjectStore:assets": ("access_key_id", "secret_access_key"),
    "Webhook:events": ("secret",),
}


def program() -> None:
    config = pulumi.Config()
    credential = alto.ObjectStoreCredential("ci")
    alto.ObjectStore(
        "assets",
        max_size_gb=config.get_int("sizeGb") or 100,
        access_key_id=credential.access_key_id,
    )
    alto.Webhook(
        "events",
        url=config.get("url") or "http://127.0.0.1:9/a",
        events=["network.created"],
        secret=config.get_secret("hookSecret"),
    )


def known_secrets(result: Result) -> set[str]:
    found = {
        str(result.resources[key].outputs[name])
        for key, names in SECRET_FIELDS.items()
        for name in names
    }
    assert all(found), found
    return found


def test_no_known_secret_sits_unmarked_after_create_update_and_refresh(
    make_stack: Callable[..., Stack],
) -> None:
    stack = make_stack(program, secrets={"hookSecret": "whsec-0123456789abcdef0123"})
    created = stack.up()
    secrets = known_secrets(created) | {"whsec-0123456789abcdef0123"}
    for key, names in SECRET_FIELDS.items():
        assert set(names) <= created.resources[key].secret_outputs, key
    assert stack.state.plain_secrets(secrets) == []

    stack.set_config("sizeGb", "200")
    stack.set_config("url", "http://127.0.0.1:9/b")
    updated = stack.up()
    assert updated.changed() == {"ObjectStore:assets": "update", "Webhook:events": "update"}
    assert stack.state.plain_secrets(secrets) == []

    stack.refresh()
    assert stack.state.plain_secrets(secrets) == []
    # The API key is in the state too (the provider's stored configuration), marked secret.
    assert stack.state.plain_secrets([stack.config["altostratus:apiKey"].value]) == []
    assert (
        stack.state.provider_config["altostratus:apiKey"]
        != stack.config["altostratus:apiKey"].value
    )
    stack.destroy()


def test_the_audit_finds_a_secret_left_plain(make_stack: Callable[..., Stack]) -> None:
    stack = make_stack(program)
    result = stack.up()
    (credential,) = (r for r in stack.state.resources if r.name == "ci")
    plain_key = result.resources["ObjectStoreCredential:ci"].outputs["secret_access_key"]
    credential.outputs["copy"] = plain_key
    assert stack.state.plain_secrets([plain_key]) == [f"{credential.urn}.outputs.copy"]
    stack.destroy()


def nested() -> None:
    credential = alto.ObjectStoreCredential("ci")
    pulumi.export("keys", {"id": credential.access_key_id, "name": credential.name})
    pulumi.export("list", [credential.name, {"key": credential.secret_access_key}])
    pulumi.export("whole", credential.secret_access_key)
    pulumi.export("plain", {"name": credential.name})


def test_secrets_inside_an_output_are_marked_where_they_sit(
    make_stack: Callable[..., Stack], engine_kind: str
) -> None:
    outputs = make_stack(nested, engine=engine_kind).up().outputs
    keys, listed = outputs["keys"], outputs["list"]
    assert not keys.secret and keys.holds_secret
    assert keys.secret_paths == (("id",),)
    assert keys.shown == {"id": "[secret]", "name": keys.value["name"]}
    assert str(keys.value["id"]) not in str(keys.shown)
    assert listed.secret_paths == ((1, "key"),)
    assert listed.shown == [listed.value[0], {"key": "[secret]"}]
    whole = outputs["whole"]
    assert whole.secret and whole.holds_secret and whole.shown == "[secret]"
    assert not outputs["plain"].holds_secret
    assert outputs["plain"].shown == outputs["plain"].value
