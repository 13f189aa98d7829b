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
    monkeypatch.setattr(tables, "KEPT_PLACES", 2)
    for number in range(5):  # the fifth deletion passes twice the bound: the oldest go
        del table[f"r{number}"]
    records, pages = table.page("acct", "LON1", 1, 10)
    assert [r.id for r in records] == [f"r{n}" for n in range(5, 13)] and pages == 2
    monkeypatch.setattr(tables, "KEEP_PLACE_SECONDS", -1.0)
    records, pages = table.page("acct", "LON1", 1, 10)
    assert [r.id for r in records] == [f"r{n}" for n in range(5, 15)] and pages == 2
