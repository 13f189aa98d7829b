"""Paginated lists, and the lookups the API offers only through a list."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from altostratus.client import Client
from altostratus.client._collection import MAX_ITEMS, MAX_PAGES
from altostratus.client.errors import (
    APIError,
    APITimeoutError,
    InvalidResponseError,
    NotFoundError,
)

from .conftest import FakeAPI, FakeClock, answer
from .records import CREDENTIAL, OBJECT_STORE, RESERVED_IP, RULE, WEBHOOK, page


@pytest.mark.parametrize(
    ("collection", "path", "record"),
    [
        ("reserved_ips", "/v2/vpc/ips", RESERVED_IP),
        ("object_stores", "/v2/objectstores", OBJECT_STORE),
        ("object_store_credentials", "/v2/objectstore/credentials", CREDENTIAL),
    ],
)
def test_list_walks_every_page(
    fake_client: Client, fake_api: FakeAPI, collection: str, path: str, record: dict[str, Any]
) -> None:
    items = [record | {"id": f"id{i}"} for i in range(5)]
    fake_api.queue(
        answer(200, page(items[:2], 1, 3)),
        answer(200, page(items[2:4], 2, 3)),
        answer(200, page(items[4:], 3, 3)),
    )
    found = getattr(fake_client, collection).list(region="nyc1")
    assert [item.id for item in found] == [f"id{i}" for i in range(5)]
    assert [request.url.path for request in fake_api.requests] == [path] * 3
    assert [dict(r.url.params) for r in fake_api.requests] == [
        {"region": "NYC1", "page": str(n), "per_page": "100"} for n in (1, 2, 3)
    ]


def test_list_walks_past_an_empty_page_to_the_last(fake_client: Client, fake_api: FakeAPI) -> None:
    fake_api.queue(
        answer(200, page([RESERVED_IP], 1, 3)),
        answer(200, page([], 2, 3)),
        answer(200, page([RESERVED_IP | {"id": "last"}], 3, 3)),
    )
    assert [ip.id for ip in fake_client.reserved_ips.list()] == [RESERVED_IP["id"], "last"]
    assert len(fake_api.requests) == 3


def test_list_stops_at_the_last_page_named(fake_client: Client, fake_api: FakeAPI) -> None:
    fake_api.queue(answer(200, page([RESERVED_IP], 1, 2)), answer(200, page([], 2, 2)))
    assert len(fake_client.reserved_ips.list()) == 1
    assert len(fake_api.requests) == 2


def test_missing_rule_is_not_found_with_the_rule_code(
    fake_client: Client, fake_api: FakeAPI
) -> None:
    fake_api.queue(answer(200, [RULE]))
    with pytest.raises(NotFoundError) as caught:
        fake_client.firewall_rules.get("f1", "r9")
    assert (caught.value.status, caught.value.code) == (404, "database_firewall_rule_not_found")


def test_missing_webhook_is_not_found_with_the_webhook_code(
    fake_client: Client, fake_api: FakeAPI
) -> None:
    fake_api.queue(answer(200, [WEBHOOK]))
    with pytest.raises(NotFoundError) as caught:
        fake_client.webhooks.get("w9")
    assert caught.value.code == "database_webhook_not_found"


def test_a_list_naming_endless_pages_is_refused_at_the_first(
    fake_client: Client, fake_api: FakeAPI
) -> None:
    fake_api.default = lambda request: answer(200, page([], 1, 1_000_000_000))
    with pytest.raises(InvalidResponseError) as refused:
        fake_client.reserved_ips.list()
    assert refused.value.code == "endless_listing"
    assert "1000000000 pages" in str(refused.value)
    assert len(fake_api.requests) == 1


def test_a_list_longer_than_the_cap_is_refused_not_cut_short(
    fake_client: Client, fake_api: FakeAPI
) -> None:
    many = [RESERVED_IP | {"id": f"id{i}"} for i in range(MAX_ITEMS // MAX_PAGES + 1)]
    fake_api.default = lambda request: answer(200, page(many, 1, MAX_PAGES))
    with pytest.raises(InvalidResponseError) as refused:
        fake_client.reserved_ips.list()
    assert refused.value.code == "endless_listing"
    assert len(fake_api.requests) < MAX_PAGES


def test_the_deadline_bounds_the_whole_walk_not_each_page(
    fake_client: Client, fake_api: FakeAPI, fake_clock: FakeClock
) -> None:
    """Each page answers in 1 s, well within the deadline; the walk of 1000 pages does not."""

    def slow_empty_page(request: httpx.Request) -> httpx.Response:
        fake_clock.now += 1.0
        return answer(200, page([], int(request.url.params["page"]), MAX_PAGES))

    fake_api.default = slow_empty_page
    with pytest.raises(APITimeoutError) as late:
        fake_client.reserved_ips.list()
    assert "deadline of 90 s" in str(late.value)
    assert len(fake_api.requests) == 90
    assert fake_clock.now == 90.0


def test_the_walks_deadline_bounds_the_retries_of_a_page(
    fake_client: Client, fake_api: FakeAPI, fake_clock: FakeClock
) -> None:
    """A page retried after 503s gives up once the walk's deadline, not its own, would pass."""

    def page_then_unavailable(request: httpx.Request) -> httpx.Response:
        if request.url.params["page"] == "1":
            fake_clock.now += 88.0
            return answer(200, page([RESERVED_IP], 1, 2))
        return answer(503, {"code": "unavailable", "reason": "busy"})

    fake_api.default = page_then_unavailable
    fake_client._http.random = lambda: 0.0
    with pytest.raises(APIError) as failed:
        fake_client.reserved_ips.list()
    assert failed.value.status == 503
    assert fake_clock.now < 90.0
    # page 1, then page 2 at 88 s, retried at 88.5 and 89.5 s; the next, at 91.5 s, is too late
    # (each page on its own would have had its 4 retries)
    assert len(fake_api.requests) == 4 and fake_clock.sleeps == [0.5, 1.0]


@pytest.mark.parametrize(
    ("collection", "record"),
    [
        ("reserved_ips", RESERVED_IP),
        ("object_stores", OBJECT_STORE),
        ("object_store_credentials", CREDENTIAL),
    ],
)
def test_a_record_answered_twice_is_one_record(
    fake_client: Client, fake_api: FakeAPI, collection: str, record: dict[str, Any]
) -> None:
    fake_api.queue(
        answer(200, page([record, record], 1, 2)),
        answer(200, page([record, record | {"id": "other"}], 2, 2)),
    )
    found = getattr(fake_client, collection).list()
    assert [item.id for item in found] == [record["id"], "other"]


def test_a_list_without_pages_repeating_a_record_names_it_once(
    fake_client: Client, fake_api: FakeAPI
) -> None:
    fake_api.queue(answer(200, [WEBHOOK, WEBHOOK]))
    assert [hook.id for hook in fake_client.webhooks.list()] == [WEBHOOK["id"]]
