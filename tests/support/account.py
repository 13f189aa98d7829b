"""What an example left in the emulator's account."""

from __future__ import annotations

from pathlib import Path

from altostratus.client import Client
from altostratus.emulator import Emulator

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def leftovers(emulator: Emulator) -> dict[str, int]:
    """What the account still holds, beyond its default networks."""
    with Client(api_key=emulator.api_key, api_url=emulator.api_url) as client:
        counts = {
            "networks": sum(not n.default for n in client.networks.list()),
            "firewalls": len(client.firewalls.list()),
            "firewall_rules": sum(len(f.rules or []) for f in client.firewalls.list()),
            "load_balancers": len(client.load_balancers.list()),
            "reserved_ips": len(client.reserved_ips.list()),
            "object_stores": len(client.object_stores.list()),
            "credentials": len(client.object_store_credentials.list()),
            "webhooks": len(client.webhooks.list()),
        }
    return {kind: count for kind, count in counts.items() if count}
