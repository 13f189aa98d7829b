from __future__ import annotations

import pytest

from altostratus.client import errors
from altostratus.client._http import HTTPClient
from altostratus.client.errors import (
    APIError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    InUseError,
    NotFoundError,
    PermissionDeniedError,
    QuotaExceededError,
    RateLimitError,
    ServerError,
)

from .conftest import API_KEY, FakeAPI, answer


@pytest.mark.parametrize(
    ("status", "code", "cls"),
    [
        (400, "parameter_cidr_invalid", BadRequestError),
        (400, "region_unavailable", BadRequestError),
        (401, "authentication_invalid_key", AuthenticationError),
        (401, "database_account_not_found", AuthenticationError),
        (403, "forbidden", PermissionDeniedError),
        (403, "quota_limit_reached", QuotaExceededError),
        (404, "database_firewall_not_found", NotFoundError),
        (409, "database_network_inuse", InUseError),
        (409, "database_objectstore_credential_inuse", InUseError),
        (409, "database_network_duplicate_name", ConflictError),
        (409, "database_network_deleting", ConflictError),
        (409, "network_delete_default", ConflictError),
        (415, "unsupported_media_type", BadRequestError),
        (422, "parameter_name_invalid", BadRequestError),
        (429, "rate_limited", RateLimitError),
        (500, "internal_error", ServerError),
        (503, "internal_error", ServerError),
        (418, "teapot", APIError),
    ],
)
def test_each_status_and_code_maps_to_its_class(
    status: int, code: str, cls: type[APIError]
) -> None:
    response = answer(status, {"result": "failed", "code": code, "reason": "Something."})
    error = errors.error_from_response(response, method="GET", path="/v2/vpc/networks")
    assert type(error) is cls
    assert (error.status, error.code, error.reason) == (status, code, "Something.")


def test_message_is_one_actionable_line() -> None:
    body = {"result": "failed", "code": "database_firewall_not_found", "reason": "Not found."}
    error = errors.error_from_response(answer(404, body), method="GET", path="/v2/vpc/firewalls/f1")
    assert str(error) == "404 database_firewall_not_found: Not found. (GET /v2/vpc/firewalls/f1)"


def test_plain_text_404_page_still_is_not_found() -> None:
    page = "\n  404 page not found  \n<p>details</p>\n"
    error = errors.error_from_response(answer(404, page), method="GET", path="/v2/vpc/ips/x")
    assert isinstance(error, NotFoundError)
    assert (error.code, error.reason) == ("http_404", "404 page not found")


@pytest.mark.parametrize("body", ["", "<html>\n<body>Bad Gateway</body>", "[1, 2]"])
def test_non_json_or_odd_bodies_keep_the_class(body: str) -> None:
    error = errors.error_from_response(answer(502, body), method="PUT", path="/v2/webhooks/w")
    assert isinstance(error, ServerError)
    assert error.code == "http_502"
    assert error.reason and "\n" not in str(error)


def test_long_reasons_are_trimmed_to_one_line() -> None:
    reason = "word " * 200 + "\nsecond line"
    body = {"result": "failed", "code": "x", "reason": reason}
    error = errors.error_from_response(answer(400, body), method="POST", path="/v2/quota")
    assert "\n" not in str(error)
    assert len(error.reason) <= 300


def test_rate_limit_carries_retry_after() -> None:
    error = errors.error_from_response(
        answer(429, {"code": "rate_limited", "reason": "Slow down."}, **{"Retry-After": "7"}),
        method="GET",
        path="/v2/quota",
    )
    assert isinstance(error, RateLimitError)
    assert error.retry_after == 7.0


@pytest.mark.parametrize(
    ("value", "seconds"), [(None, None), ("2.5", 2.5), ("-3", 0.0), ("soon", None)]
)
def test_retry_after_header_parsing(value: str | None, seconds: float | None) -> None:
    assert errors.parse_retry_after(value) == seconds


def test_401_hints_at_the_key_setting_and_never_shows_the_key(
    http: HTTPClient, fake_api: FakeAPI
) -> None:
    fake_api.queue(
        answer(
            401, {"result": "failed", "code": "authentication_invalid_key", "reason": "Bad key."}
        )
    )
    with pytest.raises(AuthenticationError) as caught:
        http.request("GET", "/v2/quota")
    message = str(caught.value)
    assert "ALTOSTRATUS_API_KEY" in message and "altostratus:apiKey" in message
    assert API_KEY not in message and API_KEY not in repr(caught.value)
    assert fake_api.last.headers["Authorization"] == f"bearer {API_KEY}"
