"""A paged listing sees every record that exists throughout it exactly once, whatever is created
or deleted between its pages."""

from __future__ import annotations

import pytest

from altostratus.client import Client
from altostratus.emulator import Emulator

from ..serving.test_server import call


def test_records_existing_throughout_a_listing_appear_exactly_once(
    fresh_emulator: Emulator,
) -> None:
    fresh_emulator.state.default_account.limits["public_ip_address"] = 400
    made = [call(fresh_emulator, "POST", "/v2/vpc/ips", {"name": f"ip{n}"})[1] for n in range(150)]
    victims = [ip["id"] for ip in made[::3]]  # a third of them, spread over every page
    kept = {ip["id"] for ip in made} - set(victims)
    seen: list[str] = []
    page, pages, added = 1, 1, 0
    while page <= pages:
        status, answer = call(fresh_emulator, "GET", f"/v2/vpc/ips?page={page}&per_page=10")
        assert status == 200
        seen += [item["id"] for item in answer["items"]]
        pages = answer["pages"]
        for _ in range(2):  # delete ahead of and behind the listing, and add more
            if victims:
                victim = victims.pop(0 if page % 2 else -1)
                assert call(fresh_emulator, "DELETE", f"/v2/vpc/ips/{victim}")[0] == 200
        call(fresh_emulator, "POST", "/v2/vpc/ips", {"name": f"new{added}"})
        added += 1
        page += 1
    counts = {record_id: seen.count(record_id) for record_id in kept}
    assert set(counts.values()) == {1}, [i for i, c in counts.items() if c != 1]
    assert len(seen) == len(set(seen))


def test_the_client_lists_past_a_page_whose_records_were_all_deleted(
    fresh_emulator: Emulator,
) -> None:
    fresh_emulator.state.default_account.limits["public_ip_address"] = 400
    with Client(api_key=fresh_emulator.api_key, api_url=fresh_emulator.api_url) as api:
        made = [api.reserved_ips.create(name=f"ip{n}").id for n in range(250)]
        for reserved_id in made[100:200]:  # the whole second page of 100
            api.reserved_ips.delete(reserved_id)
        listed = [ip.id for ip in api.reserved_ips.list()]
    assert listed == made[:100] + made[200:]


def test_deleted_places_are_forgotten_in_time_and_past_a_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from altostratus.emulator.state import table as tables

    table: tables.RecordTable[tables.Record] = tables.RecordTable()
    for number in range(20):
        table[f"r{number}"] = tables.Record(f"r{number}", "acct", "LON1")
    assert table.page("acct", "LON1", 1, 10)[1] == 2  # a walk of the pages begins
    monkeypatch.setattr(tables, "KEPT_PLACES", 2)
    for number in range(5):  # the fifth deletion passes twice the bound: the oldest go
        del table[f"r{number}"]
    records, pages = table.page("acct", "LON1", 1, 10)
    assert [r.id for r in records] == [f"r{n}" for n in range(5, 13)] and pages == 2
    monkeypatch.setattr(tables, "KEEP_PLACE_SECONDS", -1.0)
    records, pages = table.page("acct", "LON1", 1, 10)
    assert [r.id for r in records] == [f"r{n}" for n in range(5, 15)] and pages == 2


def test_with_no_walk_going_on_a_page_holds_the_live_records_not_earlier_places(
    fresh_emulator: Emulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The official clients find a reserved IP in the first page of ``GET /v2/ips`` (no page, no
    per_page): records deleted before a listing leave no empty places in it."""
    from altostratus.emulator.state import table as tables

    fresh_emulator.state.default_account.limits["public_ip_address"] = 400
    for number in range(25):
        made = call(fresh_emulator, "POST", "/v2/ips", {"name": f"gone{number}"})[1]
        assert call(fresh_emulator, "DELETE", f"/v2/ips/{made['id']}")[0] == 200
    kept = [call(fresh_emulator, "POST", "/v2/ips", {"name": f"ip{n}"})[1]["id"] for n in range(3)]
    status, answer = call(fresh_emulator, "GET", "/v2/ips")
    assert status == 200 and (answer["page"], answer["per_page"], answer["pages"]) == (1, 20, 1)
    assert [item["id"] for item in answer["items"]] == kept

    # During a walk (a page that was not the last), a deletion keeps its place; once no walk
    # goes on any more, the next listing drops it.
    for number in range(20):
        call(fresh_emulator, "POST", "/v2/ips", {"name": f"more{number}"})
    first = call(fresh_emulator, "GET", "/v2/ips?page=1&per_page=20")[1]
    assert first["pages"] == 2 and len(first["items"]) == 20
    assert call(fresh_emulator, "DELETE", f"/v2/ips/{kept[0]}")[0] == 200
    second = call(fresh_emulator, "GET", "/v2/ips?page=2&per_page=20")[1]
    assert len(second["items"]) == 3 and second["items"][0]["name"] == "more17"
    monkeypatch.setattr(tables, "KEEP_PLACE_SECONDS", -1.0)  # the walk is over
    again = call(fresh_emulator, "GET", "/v2/ips")[1]
    assert again["pages"] == 2 and [item["id"] for item in again["items"]][:2] == kept[1:]
