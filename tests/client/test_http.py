from __future__ import annotations

import httpx
import pytest

from altostratus import __version__
from altostratus.client._http import DEFAULT_TIMEOUT, HTTPClient
from altostratus.client.errors import (
    APIConnectionError,
    APIError,
    APITimeoutError,
    InvalidResponseError,
    NotFoundError,
    OutcomeUnknownError,
    RateLimitError,
    ServerError,
)

from .conftest import API_KEY, SETTINGS, FakeAPI, FakeClock, answer, body_of

FAILED = {"result": "failed", "code": "internal_error", "reason": "Injected fault."}
RATE_LIMITED = {"result": "failed", "code": "rate_limited", "reason": "Slow down."}
OK = {"result": "success"}


def refused() -> httpx.ConnectError:
    return httpx.ConnectError("[Errno 111] Connection refused")


def read_timeout() -> httpx.ReadTimeout:
    return httpx.ReadTimeout("timed out")


def test_every_call_carries_auth_agent_and_accept(http: HTTPClient, fake_api: FakeAPI) -> None:
    http.request("POST", "/v2/vpc/networks", params={"region": "LON1"}, body={"label": "a"})
    request = fake_api.last
    assert request.headers["Authorization"] == f"bearer {API_KEY}"
    assert request.headers["User-Agent"] == f"altostratus/{__version__}"
    assert request.headers["Accept"] == "application/json"
    assert request.headers["Content-Type"] == "application/json"
    assert str(request.url) == "http://api.test/v2/vpc/networks?region=LON1"
    assert body_of(request) == {"label": "a"}


def test_answers_are_decoded_json_and_empty_bodies_none(
    http: HTTPClient, fake_api: FakeAPI
) -> None:
    fake_api.queue(answer(200, [{"id": "a"}]), httpx.Response(200))
    assert http.request("GET", "/v2/webhooks") == [{"id": "a"}]
    assert http.request("DELETE", "/v2/webhooks/a") is None


def test_a_success_that_is_not_json_is_an_api_error(http: HTTPClient, fake_api: FakeAPI) -> None:
    fake_api.queue(answer(200, "<html>hello</html>"))
    with pytest.raises(InvalidResponseError, match="invalid_json"):
        http.request("GET", "/v2/quota")


def test_timeouts_default_to_5s_connect_and_30s_read() -> None:
    assert (DEFAULT_TIMEOUT.connect, DEFAULT_TIMEOUT.read) == (5.0, 30.0)
    client = HTTPClient(SETTINGS)
    assert client._client.timeout == DEFAULT_TIMEOUT
    assert HTTPClient(SETTINGS, timeout=2.0)._client.timeout.read == 2.0
    custom = httpx.Timeout(10.0, connect=1.0)
    assert HTTPClient(SETTINGS, timeout=custom)._client.timeout == custom


@pytest.mark.parametrize("method", ["GET", "PUT", "PATCH", "DELETE"])
@pytest.mark.parametrize("status", [429, 502, 503, 504])
def test_idempotent_calls_retry_on_transient_statuses(
    http: HTTPClient, fake_api: FakeAPI, fake_clock: FakeClock, method: str, status: int
) -> None:
    fake_api.queue(answer(status, FAILED), answer(status, FAILED), answer(200, OK))
    assert http.request(method, "/v2/vpc/networks/n1") == OK
    assert len(fake_api.requests) == 3
    assert fake_clock.sleeps == [0.5, 1.0]


@pytest.mark.parametrize(
    "failure", [refused, read_timeout, lambda: httpx.RemoteProtocolError("eof")]
)
def test_idempotent_calls_retry_on_transport_failures(
    http: HTTPClient, fake_api: FakeAPI, failure: object
) -> None:
    fake_api.queue(failure(), answer(200, OK))  # type: ignore[operator]
    assert http.request("GET", "/v2/vpc/networks") == OK
    assert len(fake_api.requests) == 2


def test_500_is_not_retried(http: HTTPClient, fake_api: FakeAPI) -> None:
    fake_api.queue(answer(500, FAILED))
    with pytest.raises(ServerError):
        http.request("GET", "/v2/vpc/networks")
    assert len(fake_api.requests) == 1


def test_client_errors_are_not_retried(http: HTTPClient, fake_api: FakeAPI) -> None:
    fake_api.queue(answer(404, {"code": "database_network_not_found", "reason": "Gone."}))
    with pytest.raises(NotFoundError):
        http.request("DELETE", "/v2/vpc/networks/n1")
    assert len(fake_api.requests) == 1


def test_backoff_doubles_up_to_8_seconds_then_gives_up(
    http: HTTPClient, fake_api: FakeAPI, fake_clock: FakeClock
) -> None:
    http.max_retries = 6
    fake_api.default = lambda request: answer(503, FAILED)
    with pytest.raises(ServerError) as caught:
        http.request("GET", "/v2/quota")
    assert fake_clock.sleeps == [0.5, 1.0, 2.0, 4.0, 8.0, 8.0]
    assert len(fake_api.requests) == 7
    assert caught.value.status == 503


def test_jitter_shortens_delays_by_at_most_a_quarter(
    http: HTTPClient, fake_api: FakeAPI, fake_clock: FakeClock
) -> None:
    http.random = lambda: 0.999
    fake_api.queue(answer(502, FAILED), answer(502, FAILED), answer(200, OK))
    http.request("GET", "/v2/quota")
    assert fake_clock.sleeps == pytest.approx([0.5 * 0.75, 1.0 * 0.75], rel=1e-3)


def test_retry_after_replaces_the_backoff(
    http: HTTPClient, fake_api: FakeAPI, fake_clock: FakeClock
) -> None:
    fake_api.queue(
        answer(429, RATE_LIMITED, **{"Retry-After": "3"}),
        answer(503, FAILED, **{"Retry-After": "0"}),
        answer(429, RATE_LIMITED),
        answer(200, OK),
    )
    assert http.request("GET", "/v2/quota") == OK
    assert fake_clock.sleeps == [3.0, 0.5, 2.0]  # a Retry-After of 0 still waits the floor


def test_attempts_are_bounded_by_max_retries(
    http: HTTPClient, fake_api: FakeAPI, fake_clock: FakeClock
) -> None:
    http.max_retries = 2
    fake_api.default = lambda request: answer(503, FAILED, **{"Retry-After": "1"})
    with pytest.raises(ServerError):
        http.request("GET", "/v2/quota")
    assert len(fake_api.requests) == 3


@pytest.mark.parametrize("method", ["GET", "POST"])
def test_rate_limited_calls_are_retried_past_max_retries_within_the_time_budget(
    http: HTTPClient, fake_api: FakeAPI, fake_clock: FakeClock, method: str
) -> None:
    http.max_retries = 2
    fake_api.queue(*[answer(429, RATE_LIMITED, **{"Retry-After": "1"}) for _ in range(10)])
    assert http.request(method, "/v2/webhooks", body=None) == OK
    assert len(fake_api.requests) == 11
    assert fake_clock.sleeps == [1.0] * 10
    http.max_retries = 0  # still means no retry at all
    fake_api.queue(answer(429, RATE_LIMITED, **{"Retry-After": "1"}))
    with pytest.raises(RateLimitError):
        http.request(method, "/v2/webhooks", body=None)
    assert len(fake_api.requests) == 12


def test_a_rate_limit_that_lasts_gives_up_at_max_retry_seconds(
    http: HTTPClient, fake_api: FakeAPI, fake_clock: FakeClock
) -> None:
    http.max_retries = 2
    http.max_retry_seconds = 10.0
    fake_api.default = lambda request: answer(429, RATE_LIMITED)
    with pytest.raises(RateLimitError):
        http.request("GET", "/v2/quota")
    assert fake_clock.sleeps == [0.5, 1.0, 2.0, 4.0]  # backing off as without Retry-After
    assert fake_clock.now <= 10.0


def test_retry_after_waits_up_to_a_quarter_longer_so_limited_calls_spread(
    http: HTTPClient, fake_api: FakeAPI, fake_clock: FakeClock
) -> None:
    http.random = lambda: 0.999
    fake_api.queue(answer(429, RATE_LIMITED, **{"Retry-After": "2"}), answer(200, OK))
    http.request("GET", "/v2/quota")
    assert fake_clock.sleeps == pytest.approx([2.0 * 1.24975], rel=1e-6)


def test_total_time_is_bounded_by_max_retry_seconds(
    http: HTTPClient, fake_api: FakeAPI, fake_clock: FakeClock
) -> None:
    http.max_retries = 100
    http.max_retry_seconds = 10.0
    fake_api.default = lambda request: answer(504, FAILED)
    with pytest.raises(ServerError):
        http.request("GET", "/v2/quota")
    assert fake_clock.sleeps == [0.5, 1.0, 2.0, 4.0]  # the next 8 s would end past 10 s
    assert fake_clock.now <= 10.0


def test_a_retry_after_beyond_the_budget_is_not_waited_for(
    http: HTTPClient, fake_api: FakeAPI, fake_clock: FakeClock
) -> None:
    fake_api.queue(answer(429, RATE_LIMITED, **{"Retry-After": "3600"}))
    with pytest.raises(RateLimitError):
        http.request("GET", "/v2/quota")
    assert fake_clock.sleeps == []


def test_no_retries_when_max_retries_is_zero(http: HTTPClient, fake_api: FakeAPI) -> None:
    http.max_retries = 0
    fake_api.queue(refused())
    with pytest.raises(
        APIConnectionError, match=r"cannot reach http://api\.test.*\(GET /v2/quota\)"
    ):
        http.request("GET", "/v2/quota")
    assert len(fake_api.requests) == 1


def test_timeouts_after_retries_are_api_timeout_errors(http: HTTPClient, fake_api: FakeAPI) -> None:
    fake_api.default = lambda request: (_ for _ in ()).throw(read_timeout())
    with pytest.raises(APITimeoutError) as caught:
        http.request("GET", "/v2/quota")
    assert len(fake_api.requests) == 5
    assert isinstance(caught.value.__cause__, httpx.ReadTimeout)


# POST: never retried blindly.


def test_post_is_retried_after_connection_refused(
    http: HTTPClient, fake_api: FakeAPI, fake_clock: FakeClock
) -> None:
    connect_timeout = httpx.ConnectTimeout("connect timed out")
    fake_api.queue(refused(), connect_timeout, answer(200, {"id": "n1", "result": "success"}))
    assert http.request("POST", "/v2/vpc/networks", body={"label": "a"})["id"] == "n1"
    assert len(fake_api.requests) == 3
    assert fake_clock.sleeps == [0.5, 1.0]


def test_post_is_retried_after_429(
    http: HTTPClient, fake_api: FakeAPI, fake_clock: FakeClock
) -> None:
    fake_api.queue(answer(429, RATE_LIMITED, **{"Retry-After": "2"}), answer(200, OK))
    assert http.request("POST", "/v2/webhooks", body={"url": "http://x.test"}) == OK
    assert len(fake_api.requests) == 2
    assert fake_clock.sleeps == [2.0]


def test_post_gives_up_after_connection_refused_with_a_connection_error(
    http: HTTPClient, fake_api: FakeAPI
) -> None:
    fake_api.default = lambda request: (_ for _ in ()).throw(refused())
    with pytest.raises(APIConnectionError):
        http.request("POST", "/v2/vpc/networks", body={"label": "a"})
    assert len(fake_api.requests) == 5


@pytest.mark.parametrize(
    "failure",
    [
        httpx.ReadTimeout("timed out"),
        httpx.WriteTimeout("timed out"),
        httpx.RemoteProtocolError("Server disconnected without sending a response."),
        httpx.ReadError("connection reset"),
    ],
)
def test_post_without_an_answer_is_outcome_unknown_after_one_request(
    http: HTTPClient, fake_api: FakeAPI, failure: Exception
) -> None:
    fake_api.queue(failure)
    with pytest.raises(OutcomeUnknownError) as caught:
        http.request("POST", "/v2/vpc/networks", body={"label": "a"})
    assert len(fake_api.requests) == 1
    error = caught.value
    assert (error.method, error.path, error.status) == ("POST", "/v2/vpc/networks", None)
    assert isinstance(error.cause, APIConnectionError)
    assert error.__cause__ is failure
    assert "look for the resource" in str(error)


@pytest.mark.parametrize("status", [500, 502, 503, 504])
def test_post_answered_5xx_is_outcome_unknown_keeping_the_answer(
    http: HTTPClient, fake_api: FakeAPI, status: int
) -> None:
    fake_api.queue(answer(status, FAILED))
    with pytest.raises(OutcomeUnknownError) as caught:
        http.request("POST", "/v2/vpc/ips", body={"name": "a"})
    assert len(fake_api.requests) == 1
    error = caught.value
    assert (error.status, error.code, error.reason) == (status, "internal_error", "Injected fault.")
    assert isinstance(error.cause, ServerError)
    assert str(error).startswith(f"outcome unknown for POST /v2/vpc/ips ({status} internal_error")


def test_post_client_errors_are_raised_as_they_are(http: HTTPClient, fake_api: FakeAPI) -> None:
    fake_api.queue(answer(409, {"code": "database_ip_duplicate_name", "reason": "Taken."}))
    with pytest.raises(APIError) as caught:
        http.request("POST", "/v2/vpc/ips", body={"name": "a"})
    assert caught.value.code == "database_ip_duplicate_name"
    assert len(fake_api.requests) == 1
