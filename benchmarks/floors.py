"""The fewest API requests each operation can make, with the reason, from the spec's answers.

The operations are those of the shared test scenarios (``tests/providers/scenarios.py``): the
update is that scenario's in-place update, and provisioning finishes before the first poll (so a
create that must wait needs exactly one read after its answer); a delete meets no conflict, and
the removal is over before the first read (so a delete that must confirm it needs one read).
"""

from __future__ import annotations

from dataclasses import dataclass

OPERATIONS = ("create", "read", "update", "delete", "diff")


@dataclass(frozen=True)
class Floor:
    requests: int
    reason: str


def _floors(
    create: Floor, read: Floor, update: Floor, delete: Floor | None = None
) -> dict[str, Floor]:
    return {
        "create": create,
        "read": read,
        "update": update,
        "delete": delete
        or Floor(
            1, "DELETE: the kind is removed at once, and nothing deleted after it needs it gone"
        ),
        "diff": Floor(0, "compares the state with the inputs; nothing to ask the API"),
    }


_GET = Floor(1, "GET of the record")
_GONE = Floor(
    2,
    "DELETE, then a GET answering 404: the service may finish a removal after answering "
    "(a network Deleting), and what depends on the resource must not meet it",
)
_LIST_ONLY = "the API has no call for one {}, so the list is the read"

FLOORS: dict[str, dict[str, Floor]] = {
    "network": _floors(
        Floor(2, "POST answers only id, name, label: a GET for cidr, gateway, status"),
        _GET,
        Floor(2, "PUT answers only id, label: a GET for the live record"),
        _GONE,
    ),
    "firewall": _floors(
        Floor(2, "POST answers only id, name: a GET for rules and counts"),
        _GET,
        Floor(2, "PUT answers only id, name: a GET for the live record"),
        _GONE,
    ),
    "firewall_rule": _floors(
        Floor(1, "POST answers the whole rule (ports is start_port and end_port)"),
        Floor(1, _LIST_ONLY.format("rule") + " (one list of the firewall's rules)"),
        Floor(2, "PUT answers only id, result: the firewall's rule list for the live rule"),
    ),
    "load_balancer": _floors(
        Floor(2, "POST answers state '' and no addresses: at least one GET once available"),
        _GET,
        Floor(1, "PUT answers the whole balancer"),
        _GONE,
    ),
    "reserved_ip": _floors(
        Floor(2, "POST answers only id, name: a GET for the address"),
        _GET,
        Floor(2, "the assign action answers only result: a GET for assigned_to"),
        _GONE,
    ),
    "object_store_credential": _floors(
        Floor(1, "POST answers the whole credential, already ready"),
        _GET,
        Floor(1, "PATCH answers the whole credential"),
    ),
    "object_store": _floors(
        Floor(
            3,
            "POST answers status creating: a GET once ready, and one credential list for the "
            "owner's secret (the store shows only its key id)",
        ),
        Floor(2, "GET, and the credential list for the owner's current secret"),
        Floor(2, "PATCH answers the whole store; the credential list for the owner's secret"),
        Floor(
            4,
            "without force_destroy, the objects are counted first (the API has no count): a GET "
            "for the bucket and owner, the credential list for its secret, then the S3 listing "
            "(not an API request); then DELETE, and a GET answering 404",
        ),
    ),
    "webhook": _floors(
        Floor(2, "POST answers only id, result: " + _LIST_ONLY.format("webhook") + " after"),
        Floor(1, _LIST_ONLY.format("webhook")),
        Floor(1, "PUT answers the whole webhook"),
    ),
}
