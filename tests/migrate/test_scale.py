"""A migration's work grows with the state linearly: the Python calls per resource are the same
for a state ten times larger (counted, not timed; the times are in ``benchmarks``)."""

from __future__ import annotations

import cProfile
import json
import pstats
from typing import Any

import pytest

from altostratus.migrate import (
    FRONT_ENDS,
    FrontEnd,
    migrate,
    program_source,
    read_source,
    report_text,
)


def state(size: int) -> str:
    """Half networks (carried), half instances (not), each instance on its network by id and
    on the whole ``count`` of networks by dependency, and on the instance before it by id."""
    resources: list[dict[str, Any]] = []
    for number in range(size // 2):
        resources.append(
            {
                "address": f"civo_network.net[{number}]",
                "mode": "managed",
                "type": "civo_network",
                "name": "net",
                "index": number,
                "values": {"id": f"n-{number}", "label": f"net-{number}", "region": "LON1"},
            }
        )
        resources.append(
            {
                "address": f"civo_instance.vm[{number}]",
                "mode": "managed",
                "type": "civo_instance",
                "name": "vm",
                "index": number,
                "values": {
                    "id": f"i-{number}",
                    "network_id": f"n-{number}",
                    "after": f"i-{number - 1}",
                },
                "depends_on": ["civo_network.net"],
            }
        )
    return json.dumps(
        {"format_version": "1.0", "values": {"root_module": {"resources": resources}}}
    )


def calls_per_resource(size: int, front_end: FrontEnd) -> float:
    text = state(size)
    profile = cProfile.Profile()
    profile.enable()
    migration = migrate(read_source(text))
    program_source(migration, "migration-report.md", front_end=front_end)
    report_text(migration, "__main__.py", front_end=front_end)
    profile.disable()
    assert len(migration.declarations) == len(migration.left) == size // 2
    return int(pstats.Stats(profile).total_calls) / size  # type: ignore[attr-defined]


@pytest.mark.parametrize("front_end", sorted(FRONT_ENDS))
def test_the_work_per_resource_does_not_grow_with_the_state(front_end: FrontEnd) -> None:
    small, large = calls_per_resource(300, front_end), calls_per_resource(3000, front_end)
    assert large <= small * 1.1, (small, large)


def test_each_instance_uses_the_network_it_names_not_every_instance_of_the_count() -> None:
    migration = migrate(read_source(state(6)))
    uses = {left.resource.address: [r.address for r in left.uses] for left in migration.left}
    assert uses == {
        "civo_instance.vm[0]": ["civo_network.net[0]"],
        "civo_instance.vm[1]": ["civo_instance.vm[0]", "civo_network.net[1]"],
        "civo_instance.vm[2]": ["civo_instance.vm[1]", "civo_network.net[2]"],
    }
    report = report_text(migration, "__main__.py")
    assert (
        "- `civo_instance.vm[1]`, id `i-1`: altostratus has no instance resource. It uses "
        "`civo_instance.vm[0]` (not carried), `civo_network.net[1]` (adopted): keep what the "
        "program adopts while it does. Used by `civo_instance.vm[2]` (not carried)." in report
    )
