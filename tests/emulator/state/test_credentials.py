from __future__ import annotations

import re

import pytest

from tests.support.service_api import Api, RecordingEvents

FIELDS = {
    "id",
    "name",
    "access_key_id",
    "secret_access_key_id",
    "max_size_gb",
    "suspended",
    "status",
}
PATH = "/objectstore/credentials"


def test_create_generates_keys(any_api: Api, events: RecordingEvents) -> None:
    credential = any_api.ok("POST", PATH, {"name": "ci", "region": "LON1"})
    assert set(credential) == FIELDS
    assert re.fullmatch(r"[A-Z0-9]{20}", credential["access_key_id"])
    assert len(credential["secret_access_key_id"]) == 40
    assert (credential["status"], credential["suspended"]) == ("ready", False)
    assert events.emitted[-1][1:] == ("objectstorecredential.created", credential["id"])
    assert any_api.ok("GET", f"{PATH}/{credential['id']}") == credential


def test_create_takes_given_keys(any_api: Api) -> None:
    body = {
        "name": "given",
        "access_key_id": "ABCDEFGHIJ0123456789",
        "secret_access_key_id": "s" * 40,
        "max_size_gb": 7,
    }
    credential = any_api.ok("POST", PATH, body)
    assert credential["access_key_id"] == body["access_key_id"]
    assert credential["secret_access_key_id"] == body["secret_access_key_id"]
    assert credential["max_size_gb"] == 7


def test_keys_are_unique_across_the_service(wsgi_api: Api, other: Api) -> None:
    key = "ABCDEFGHIJ0123456789"
    wsgi_api.ok("POST", PATH, {"name": "a", "access_key_id": key})
    other.error(
        409,
        "database_objectstore_credential_duplicate_access_key_id",
        "POST",
        PATH,
        {"name": "b", "access_key_id": key},
    )


def test_create_validates(wsgi_api: Api) -> None:
    wsgi_api.error(400, "parameter_name_missing", "POST", PATH, {})
    for wrong in ("ab", "has space", "a/b", "x" * 129):
        body = {"name": "a", "access_key_id": wrong}
        wsgi_api.error(400, "parameter_access_key_id_invalid", "POST", PATH, body)
    body = {"name": "a", "secret_access_key_id": "short"}
    wsgi_api.error(400, "parameter_secret_access_key_id_invalid", "POST", PATH, body)
    wsgi_api.error(
        400, "parameter_max_size_gb_invalid", "POST", PATH, {"name": "a", "max_size_gb": -1}
    )
    wsgi_api.ok("POST", PATH, {"name": "a"})
    wsgi_api.error(
        409, "database_objectstore_credential_duplicate_name", "POST", PATH, {"name": "a"}
    )


@pytest.mark.parametrize("key", ["1234567890", "my-access-key"])
def test_the_access_keys_the_terraform_tests_choose_are_taken(wsgi_api: Api, key: str) -> None:
    credential = wsgi_api.ok("POST", PATH, {"name": "tf", "access_key_id": key})
    assert credential["access_key_id"] == key
    store = wsgi_api.ok("POST", "/objectstores", {"name": "s", "access_key_id": key})
    assert store["owner_info"]["access_key_id"] == key


def test_update(any_api: Api, events: RecordingEvents) -> None:
    credential = any_api.ok("POST", PATH, {"name": "ci"})
    store = any_api.ok(
        "POST", "/objectstores", {"name": "s", "access_key_id": credential["access_key_id"]}
    )
    body = {
        "access_key_id": "NEWKEY00000000000001",
        "secret_access_key_id": "n" * 40,
        "max_size_gb": 3,
    }
    updated = any_api.ok("PATCH", f"{PATH}/{credential['id']}", body)
    assert (updated["access_key_id"], updated["max_size_gb"]) == ("NEWKEY00000000000001", 3)
    assert updated["secret_access_key_id"] == "n" * 40
    assert events.emitted[-1][1:] == ("objectstorecredential.updated", credential["id"])
    owner = any_api.ok("GET", f"/objectstores/{store['id']}")["owner_info"]
    assert owner["access_key_id"] == "NEWKEY00000000000001"


def test_delete(any_api: Api, events: RecordingEvents) -> None:
    credential = any_api.ok("POST", PATH, {"name": "ci"})
    assert any_api.ok("DELETE", f"{PATH}/{credential['id']}") == {"result": "success"}
    assert events.emitted[-1][1:] == ("objectstorecredential.deleted", credential["id"])
    any_api.error(
        404, "database_objectstore_credential_not_found", "GET", f"{PATH}/{credential['id']}"
    )


def test_a_stores_auto_made_owner_cannot_be_deleted_alone(wsgi_api: Api) -> None:
    wsgi_api.ok("POST", "/objectstores", {"name": "s"})
    owner = wsgi_api.ok("GET", PATH)["items"][0]
    wsgi_api.error(409, "database_objectstore_credential_inuse", "DELETE", f"{PATH}/{owner['id']}")


def test_list_is_paginated_and_private(wsgi_api: Api, other: Api) -> None:
    for n in range(3):
        wsgi_api.ok("POST", PATH, {"name": f"c{n}"})
    page = wsgi_api.ok("GET", PATH, query={"per_page": 1})
    assert (page["pages"], len(page["items"])) == (3, 1)
    assert other.ok("GET", PATH)["items"] == []
    assert wsgi_api.ok("GET", PATH, query={"region": "NYC1"})["items"] == []
