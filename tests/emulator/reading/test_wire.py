"""Authentication, bodies, regions and the error format, common to every endpoint."""

from __future__ import annotations

import json

import pytest

from tests.support.service_api import Api


def raw(api: Api, method: str, path: str, data: bytes | str | None, content_type: str | None):  # type: ignore[no-untyped-def]
    headers = {"Authorization": f"bearer {api.key}"}
    if content_type is not None:
        headers["Content-Type"] = content_type
    response = api.client.open(path, method=method, data=data, headers=headers)
    return response.status_code, json.loads(response.get_data(as_text=True))


@pytest.mark.parametrize("scheme", ["bearer", "Bearer", "BEARER"])
def test_the_bearer_scheme_is_case_insensitive(wsgi_api: Api, scheme: str) -> None:
    response = wsgi_api.client.get(
        "/v2/networks", headers={"Authorization": f"{scheme} {wsgi_api.key}"}
    )
    assert response.status_code == 200


@pytest.mark.parametrize(
    "authorization", [None, "", "bearer", "bearer wrong", "Basic local-dev-key", "local-dev-key"]
)
def test_missing_or_unknown_keys_answer_401(wsgi_api: Api, authorization: str | None) -> None:
    headers = {} if authorization is None else {"Authorization": authorization}
    response = wsgi_api.client.get("/v2/vpc/networks", headers=headers)
    assert response.status_code == 401
    # A key the service does not know is an account it cannot find; no key at all is invalid.
    unknown = authorization == "bearer wrong"
    assert response.json == {
        "result": "failed",
        "code": "database_account_not_found" if unknown else "authentication_invalid_key",
        "reason": response.json["reason"],
    }


def test_401_comes_before_anything_is_changed(wsgi_api: Api) -> None:
    wsgi_api.with_key("wrong").error(
        401, "database_account_not_found", "POST", "/networks", {"label": "x"}
    )
    assert len(wsgi_api.ok("GET", "/networks")) == 1


def test_unknown_paths_answer_json_404(wsgi_api: Api) -> None:
    for path in ("/v2/nothing", "/v2/vpc/objectstores", "/v1/networks", "/"):
        wsgi_api.error(404, "not_found", "GET", path)


def test_a_wrong_method_answers_json_405(wsgi_api: Api) -> None:
    wsgi_api.error(405, "method_not_allowed", "PATCH", "/networks", {})


def test_other_content_types_answer_415(wsgi_api: Api) -> None:
    for content_type in ("text/plain", "multipart/form-data; boundary=x", "application/xml"):
        status, body = raw(wsgi_api, "POST", "/v2/networks", "label=x", content_type)
        assert (status, body["code"]) == (415, "unsupported_media_type")
    status, body = raw(wsgi_api, "POST", "/v2/networks", "label=x", None)
    assert status == 415


def test_json_with_a_charset_is_json(wsgi_api: Api) -> None:
    status, body = raw(
        wsgi_api, "POST", "/v2/networks", '{"label": "x"}', "application/json; charset=utf-8"
    )
    assert status == 200 and body["label"] == "x"


@pytest.mark.parametrize("data", ["{", "[1]", '"text"', "\xff"])
def test_bodies_that_are_not_a_json_object_answer_400(wsgi_api: Api, data: str) -> None:
    status, body = raw(wsgi_api, "POST", "/v2/networks", data.encode("latin-1"), "application/json")
    assert (status, body["code"]) == (400, "parameter_body_invalid")


def test_an_empty_body_is_no_parameters(wsgi_api: Api) -> None:
    network = wsgi_api.ok("POST", "/networks", {"label": "x"})
    status, _ = raw(wsgi_api, "DELETE", f"/v2/networks/{network['id']}", None, None)
    assert status == 200
    status, body = raw(wsgi_api, "POST", "/v2/networks", "", "application/json")
    assert (status, body["code"]) == (400, "parameter_label_missing")


def test_region_comes_from_query_or_body_case_insensitively(wsgi_api: Api) -> None:
    wsgi_api.ok("POST", "/networks", {"label": "a", "region": "fra1"})
    wsgi_api.ok("POST", "/networks", {"label": "b"}, query={"region": "Fra1"})
    wsgi_api.ok("POST", "/networks", {"label": "c", "region": "FRA1"}, query={"region": "fra1"})
    labels = [n["label"] for n in wsgi_api.ok("GET", "/networks", query={"region": "fra1"})]
    assert labels == ["Default", "a", "b", "c"]


def test_region_disagreement_and_unknown_regions_answer_400(wsgi_api: Api) -> None:
    body = {"label": "a", "region": "FRA1"}
    wsgi_api.error(
        400, "parameter_region_invalid", "POST", "/networks", body, query={"region": "LON1"}
    )
    wsgi_api.error(
        400, "region_unavailable", "POST", "/networks", {"label": "a", "region": "MARS1"}
    )
    wsgi_api.error(400, "region_unavailable", "GET", "/networks", query={"region": "ams3"})
    wsgi_api.error(
        400, "parameter_region_invalid", "POST", "/networks", {"label": "a", "region": 1}
    )


def test_both_path_families_share_the_same_records(wsgi_api: Api) -> None:
    created = wsgi_api.ok("POST", "/v2/vpc/networks", {"label": "shared"})
    assert wsgi_api.ok("GET", f"/v2/networks/{created['id']}")["label"] == "shared"
    wsgi_api.ok("PUT", f"/v2/networks/{created['id']}", {"label": "renamed"})
    assert wsgi_api.ok("GET", f"/v2/vpc/networks/{created['id']}")["label"] == "renamed"
    wsgi_api.ok("DELETE", f"/v2/vpc/networks/{created['id']}")
    wsgi_api.error(404, "database_network_not_found", "GET", f"/v2/networks/{created['id']}")


def test_non_networking_collections_have_no_vpc_alias(wsgi_api: Api) -> None:
    for path in (
        "/v2/vpc/objectstores",
        "/v2/vpc/webhooks",
        "/v2/vpc/quota",
        "/v2/vpc/objectstore/credentials",
    ):
        wsgi_api.error(404, "not_found", "GET", path)


def test_trailing_slashes_are_accepted(wsgi_api: Api) -> None:
    assert len(wsgi_api.ok("GET", "/v2/vpc/networks/")) == 1


def test_form_booleans_and_numbers(wsgi_api: Api) -> None:
    network_id = wsgi_api.ok("GET", "/networks")[0]["id"]
    body = {"name": "fw", "network_id": network_id, "create_default_rules": "false"}
    firewall = wsgi_api.ok("POST", "/firewalls", body, form=True)
    assert wsgi_api.ok("GET", f"/firewalls/{firewall['id']}")["rules"] == []
    store = wsgi_api.ok("POST", "/objectstores", {"name": "s", "size": "3"}, form=True)
    assert store["max_size_gb"] == 3


def test_a_handler_bug_is_logged_and_answered_as_json(
    wsgi_api: Api, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(*args: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(wsgi_api.app.state.networks, "all", broken)
    reply = wsgi_api.call("GET", "/networks")
    assert (reply.status, reply.body["code"]) == (500, "internal_error")
    assert "boom" in caplog.text
