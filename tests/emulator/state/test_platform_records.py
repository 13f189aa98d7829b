"""The ``/api/v1`` records (platform environments, applications, deployments; hosting
environments and the command line's applications) are kept as the ``/v2`` ones are: a state
folder brings them back after a restart, a seed made from the state makes them again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from altostratus.emulator import Emulator


def http_of(emulator: Emulator) -> httpx.Client:
    return httpx.Client(
        base_url=emulator.api_url, headers={"Authorization": f"bearer {emulator.api_key}"}
    )


def make(client: httpx.Client) -> None:
    calls: list[tuple[str, dict[str, Any]]] = [
        (
            "/api/v1/environment",
            {"name": "dev", "namespace": "default", "clusters": ["lon1-managed"]},
        ),
        (
            "/api/v1/application/register",
            {"name": "shop", "namespace": "default", "repository": "https://example.com/s.git"},
        ),
        (
            "/api/v1/application-deployment/deploy",
            {"application": "shop", "namespace": "default", "environment": "dev", "version": "v2"},
        ),
        ("/api/v1/app-environments", {"name": "eu", "organization": "default", "region": "FRA1"}),
        (
            "/api/v1/apps",
            {
                "name": "site",
                "organization": "default",
                "runtime": "go",
                "digest": "cd" * 32,
                "environment": "eu",
            },
        ),
    ]
    for path, body in calls:
        answer = client.post(path, json=body)
        assert answer.status_code == 200, answer.text


def seen(client: httpx.Client) -> dict[str, Any]:
    return {
        "environments": client.get("/api/v1/environments").json(),
        "applications": client.get("/api/v1/konstruct-application/default").json(),
        "deployment": client.get("/api/v1/application-deployment/default/shop").json()["version"],
        "hosting": client.get("/api/v1/app-environments/default").json(),
        "app": {
            k: v
            for k, v in client.get("/api/v1/apps/default/site").json().items()
            if k in ("name", "environment", "runtime", "image")
        },
    }


def test_a_state_folder_keeps_the_platform_and_application_records(tmp_path: Path) -> None:
    with Emulator(state_dir=tmp_path) as first:
        make(http_of(first))
        before = seen(http_of(first))
    with Emulator(state_dir=tmp_path) as second:
        assert seen(http_of(second)) == before


def test_a_seed_from_the_state_makes_them_again() -> None:
    with Emulator() as first:
        make(http_of(first))
        before = seen(http_of(first))
        state = http_of(first).get("/_emulator/state").json()
    with Emulator(seed=state) as second:
        after = seen(http_of(second))
    # A seed makes the records again: their times are the new ones, as every kind's are.
    assert untimed(after) == untimed(before)


def untimed(value: Any) -> Any:
    if isinstance(value, list):
        return [untimed(item) for item in value]
    if isinstance(value, dict):
        return {k: untimed(v) for k, v in value.items() if not k.endswith("_at")}
    return value
