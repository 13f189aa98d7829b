"""Where the service's specification and its official clients disagree, or the spec shows nothing
of what the clients rely on: what the emulator does, and the evidence.

This is the one place in the code that records such decisions. The emulator guide's table of the
official clients' requests shows each one (a test holds the two together), and
``GET /openapi.json`` lists them under ``x-official-clients``. The stores implement them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class Decision:
    shape: str
    """The request, as the first column of the guide's table names it."""
    spec: str
    """What the specification says of it."""
    clients: str
    """What the official clients do: the evidence."""
    emulator: str
    """What the emulator answers."""


DECISIONS: tuple[Decision, ...] = (
    Decision(
        shape="a network's delete while firewalls are on it",
        spec="names no error of a network's delete, and no firewall made with a network",
        clients="the Terraform provider (and the bridged Pulumi provider) makes a "
        "<label>-default firewall for every network and the CLI's network create "
        "--create-default-firewall makes one; both delete the network alone; the Go client "
        "has no error code for a network held by a firewall, and the Terraform provider's "
        "acceptance tests check that networks are destroyed",
        emulator="the firewalls go with the network, their rules with them, each with its "
        "firewall.deleted; 409 database_network_inuse while a load balancer uses the network, "
        "on it or through one of its firewalls",
    ),
    Decision(
        shape="a reserved IP's create without `name`",
        spec="name is required",
        clients="the Go client documents it optional (If not provided, name will be the IP "
        "address); civo ip reserve sends none",
        emulator="named by its address",
    ),
    Decision(
        shape="reading `assigned_to` from the reserved IP list",
        spec="list items hold id, name and ip; assigned_to is returned by retrieve only",
        clients="civo ip ls and civo vpc ip show read assigned_to from the list",
        emulator="each list item as a retrieve shows it, assigned_to included while assigned",
    ),
    Decision(
        shape="`assign_to_type` on a reserved IP's action",
        spec="names no assign_to_type; assign_to_id is the resource to attach to",
        clients="the Go client sends assign_to_type, documenting instance and loadbalancer",
        emulator="loadbalancer (as when absent) looks for a load balancer; instance answers "
        "404 database_instance_not_found, the emulator serving no instances; another kind 400 "
        "parameter_assign_to_type_invalid",
    ),
    Decision(
        shape="a balancer's create without `firewall_id`",
        spec="the create body lists no firewall_id; the balancer object carries one",
        clients="every balancer of the Go client's answers carries a firewall_id, its create "
        "answer to an empty request included",
        emulator="a firewall of its own on the balancer's network, <name>-lb-<first 8 "
        "characters of its id>, deleted with the balancer unless another uses it",
    ),
    Decision(
        shape="`firewall_rule` on a balancer's create",
        spec="not shown",
        clients="the official clients send it (all, or ports)",
        emulator="what the balancer's own firewall opens: all (the default rules), or ports "
        "and ranges over TCP; without it, each backend's source port; other text 400 "
        "parameter_firewall_rule_invalid",
    ),
)


def described() -> list[dict[str, Any]]:
    """The decisions as the OpenAPI document lists them."""
    return [asdict(decision) for decision in DECISIONS]
