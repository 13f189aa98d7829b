from __future__ import annotations

import re

import pytest

from tests.support.service_api import S3_URL, Api, RecordingBuckets, RecordingEvents

FIELDS = {"id", "name", "max_size_gb", "max_size", "owner_info", "status", "objectstore_endpoint"}


def test_create_makes_a_bucket_and_an_owner_credential(
    any_api: Api, buckets: RecordingBuckets, events: RecordingEvents
) -> None:
    store = any_api.ok("POST", "/objectstores", {"name": "photos", "region": "LON1"})
    assert set(store) == FIELDS
    bucket = store["objectstore_endpoint"].removeprefix(S3_URL + "/")
    assert re.fullmatch(r"photos-[a-z0-9]{6}", bucket)
    assert buckets.created == [bucket]
    assert store["max_size_gb"] == 500 and store["status"] == "creating"
    credentials = any_api.ok("GET", "/objectstore/credentials")["items"]
    assert [c["name"] for c in credentials] == [bucket]
    owner = credentials[0]
    assert store["owner_info"] == {
        "name": bucket,
        "access_key_id": owner["access_key_id"],
        "credential_id": owner["id"],
    }
    assert events.names() == ["objectstorecredential.created", "objectstore.created"]


def test_status_becomes_ready_after_the_delay(wsgi_api: Api) -> None:
    store = wsgi_api.ok("POST", "/objectstores", {"name": "photos"})
    wsgi_api.advance(0.9)
    assert wsgi_api.ok("GET", f"/objectstores/{store['id']}")["status"] == "creating"
    wsgi_api.advance(0.2)
    assert wsgi_api.ok("GET", f"/objectstores/{store['id']}")["status"] == "ready"


def test_create_with_a_credential_and_size(any_api: Api) -> None:
    credential = any_api.ok("POST", "/objectstore/credentials", {"name": "keys"})
    body = {"name": "docs", "size": 5, "access_key_id": credential["access_key_id"]}
    store = any_api.ok("POST", "/objectstores", body)
    assert store["max_size_gb"] == 5
    assert store["owner_info"] == {
        "name": "keys",
        "access_key_id": credential["access_key_id"],
        "credential_id": credential["id"],
    }
    assert len(any_api.ok("GET", "/objectstore/credentials")["items"]) == 1
    any_api.error(
        409,
        "database_objectstore_credential_inuse",
        "DELETE",
        f"/objectstore/credentials/{credential['id']}",
    )


def test_access_key_id_must_name_a_credential_of_the_account_and_region(
    wsgi_api: Api, other: Api
) -> None:
    theirs = other.ok("POST", "/objectstore/credentials", {"name": "keys"})
    elsewhere = wsgi_api.ok("POST", "/objectstore/credentials", {"name": "k", "region": "FRA1"})
    for key in ("AAAAAAAAAAAAAAAAAAAA", theirs["access_key_id"], elsewhere["access_key_id"]):
        body = {"name": "docs", "access_key_id": key}
        wsgi_api.error(400, "parameter_access_key_id_invalid", "POST", "/objectstores", body)
    assert wsgi_api.ok("GET", "/objectstores")["items"] == []


@pytest.mark.parametrize(
    "name", ["Photos", "-photos", "photos-", "a..b", "a.-b", "has space", "x" * 57, "192.168.1.1"]
)
def test_names_that_cannot_form_a_bucket_are_refused(wsgi_api: Api, name: str) -> None:
    wsgi_api.error(400, "parameter_name_invalid", "POST", "/objectstores", {"name": name})


def test_create_validates(wsgi_api: Api) -> None:
    wsgi_api.error(400, "parameter_name_missing", "POST", "/objectstores", {})
    wsgi_api.error(400, "parameter_size_invalid", "POST", "/objectstores", {"name": "a", "size": 0})
    wsgi_api.error(
        400, "parameter_size_invalid", "POST", "/objectstores", {"name": "a", "size": "big"}
    )
    wsgi_api.ok("POST", "/objectstores", {"name": "a"})
    wsgi_api.error(
        409, "database_objectstore_duplicate_name", "POST", "/objectstores", {"name": "a"}
    )


def test_update_changes_size_and_owner(any_api: Api, events: RecordingEvents) -> None:
    store = any_api.ok("POST", "/objectstores", {"name": "photos"})
    credential = any_api.ok("POST", "/objectstore/credentials", {"name": "new-owner"})
    body = {"max_size_gb": 10, "access_key_id": credential["access_key_id"], "region": "LON1"}
    updated = any_api.ok("PATCH", f"/objectstores/{store['id']}", body)
    assert updated["max_size_gb"] == 10
    assert updated["owner_info"]["access_key_id"] == credential["access_key_id"]
    assert events.emitted[-1][1:] == ("objectstore.updated", store["id"])
    body = {"access_key_id": "NOSUCHKEY00000000000"}
    path = f"/objectstores/{store['id']}"
    any_api.error(400, "parameter_access_key_id_invalid", "PATCH", path, body)


def test_delete_removes_bucket_and_the_owner_made_with_it(
    any_api: Api, buckets: RecordingBuckets, events: RecordingEvents
) -> None:
    store = any_api.ok("POST", "/objectstores", {"name": "photos"})
    assert any_api.ok("DELETE", f"/objectstores/{store['id']}") == {"result": "success"}
    assert buckets.deleted == buckets.created
    assert any_api.ok("GET", "/objectstore/credentials")["items"] == []
    assert "objectstore.deleted" in events.names()
    assert events.names()[-1] == "objectstorecredential.deleted"
    any_api.error(404, "database_objectstore_not_found", "GET", f"/objectstores/{store['id']}")


def test_delete_keeps_a_credential_given_at_create(wsgi_api: Api) -> None:
    credential = wsgi_api.ok("POST", "/objectstore/credentials", {"name": "keys"})
    body = {"name": "docs", "access_key_id": credential["access_key_id"]}
    store = wsgi_api.ok("POST", "/objectstores", body)
    wsgi_api.ok("DELETE", f"/objectstores/{store['id']}")
    wsgi_api.ok("DELETE", f"/objectstore/credentials/{credential['id']}")


def test_list_is_paginated(wsgi_api: Api) -> None:
    for n in range(3):
        wsgi_api.ok("POST", "/objectstores", {"name": f"s{n}"})
    page = wsgi_api.ok("GET", "/objectstores", query={"per_page": 2, "page": 2})
    assert (page["page"], page["per_page"], page["pages"]) == (2, 2, 2)
    assert [s["name"] for s in page["items"]] == ["s2"]
    wsgi_api.error(400, "parameter_per_page_invalid", "GET", "/objectstores", query={"per_page": 0})


def test_stores_are_private_to_account_and_region(wsgi_api: Api, other: Api) -> None:
    store = wsgi_api.ok("POST", "/objectstores", {"name": "photos"})
    other.error(404, "database_objectstore_not_found", "GET", f"/objectstores/{store['id']}")
    other.error(404, "database_objectstore_not_found", "DELETE", f"/objectstores/{store['id']}")
    query = {"region": "FRA1"}
    wsgi_api.error(
        404, "database_objectstore_not_found", "GET", f"/objectstores/{store['id']}", query=query
    )
    assert other.ok("GET", "/objectstores")["items"] == []


def test_directory_answers_the_s3_front(wsgi_api: Api) -> None:
    store = wsgi_api.ok("POST", "/objectstores", {"name": "photos", "size": 2})
    bucket_name = store["objectstore_endpoint"].rsplit("/", 1)[1]
    state = wsgi_api.app.state
    bucket = state.s3_bucket(bucket_name)
    assert bucket is not None
    assert bucket.owner_access_key_id == store["owner_info"]["access_key_id"]
    assert bucket.max_size_bytes == 2 * 1024**3
    key = state.s3_key(bucket.owner_access_key_id)
    assert key is not None and key.account_id == bucket.account_id
    assert state.s3_buckets_of(bucket.owner_access_key_id) == [bucket]
    assert state.s3_bucket("nope") is None and state.s3_key("nope") is None
    assert state.s3_buckets_of("nope") == []
