"""Paginated lists, and the lookups the API offers only through a list."""

from __future__ import annotations

from typing import Any

import pytest

from altostratus.client import Client
from altostratus.client.errors import NotFoundError

from .conftest import FakeAPI, answer
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
    client: Client, api: FakeAPI, collection: str, path: str, record: dict[str, Any]
) -> None:
    items = [record | {"id": f"id{i}"} for i in range(5)]
    api.queue(
        answer(200, page(items[:2], 1, 3)),
        answer(200, page(items[2:4], 2, 3)),
        answer(200, page(items[4:], 3, 3)),
    )
    found = getattr(client, collection).list(region="nyc1")
    assert [item.id for item in found] == [f"id{i}" for i in range(5)]
    assert [request.url.path for request in api.requests] == [path] * 3
    assert [dict(r.url.params) for r in api.requests] == [
        {"region": "NYC1", "page": str(n), "per_page": "100"} for n in (1, 2, 3)
    ]


def test_list_walks_past_an_empty_page_to_the_last(client: Client, api: FakeAPI) -> None:
    api.queue(
        answer(200, page([RESERVED_IP], 1, 3)),
        answer(200, page([], 2, 3)),
        answer(200, page([RESERVED_IP | {"id": "last"}], 3, 3)),
    )
    assert [ip.id for ip in client.reserved_ips.list()] == [RESERVED_IP["id"], "last"]
    assert len(api.requests) == 3


def test_list_stops_at_the_last_page_named(client: Client, api: FakeAPI) -> None:
    api.queue(answer(200, page([RESERVED_IP], 1, 2)), answer(200, page([], 2, 2)))
    assert len(client.reserved_ips.list()) == 1
    assert len(api.requests) == 2


def test_missing_rule_is_not_found_with_the_rule_code(client: Client, api: FakeAPI) -> None:
    api.queue(answer(200, [RULE]))
    with pytest.raises(NotFoundError) as caught:
        client.firewall_rules.get("f1", "r9")
    assert (caught.value.status, caught.value.code) == (404, "database_firewall_rule_not_found")


def test_missing_webhook_is_not_found_with_the_webhook_code(client: Client, api: FakeAPI) -> None:
    api.queue(answer(200, [WEBHOOK]))
    with pytest.raises(NotFoundError) as caught:
        client.webhooks.get("w9")
    assert caught.value.code == "database_webhook_not_found"
