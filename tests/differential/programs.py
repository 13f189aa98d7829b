"""Programs that both engines run: resource options, drift, failing programs and creates.

Each ``Scenario`` is a program reading its stack configuration and the steps run on it: a
command (``up``, ``preview``, ``refresh``, ``destroy``), the configuration set before it, and an
optional change made to the service behind the stack's back (drift). The same scenario runs
through ``altostratus.testing``'s runner and through the real engine (``differential.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pulumi

import altostratus as alto
import altostratus.plugin as plugin
from altostratus.client import Client

Drift = Callable[[Client], None]


@dataclass(frozen=True)
class Step:
    command: str
    config: dict[str, str] = field(default_factory=dict)
    drift: Drift | None = None
    fault: dict[str, Any] | None = None
    """A fault of the service during the step (``Emulator.add_fault``'s arguments)."""


@dataclass(frozen=True)
class Scenario:
    name: str
    program: Callable[[], None]
    steps: tuple[Step, ...]
    config: dict[str, str] = field(default_factory=dict)
    seed: dict[str, Any] | None = None
    """What the service holds before the first step (an emulator seed's first account)."""


def _config() -> pulumi.Config:
    return pulumi.Config()


def _network(name: str = "app", opts: pulumi.ResourceOptions | None = None) -> alto.Network:
    config = _config()
    return alto.Network(
        name,
        label=config.get("label") or "app",
        cidr_v4=config.get("cidr") or "10.20.0.0/24",
        opts=opts,
    )


def ignore_changes() -> None:
    _network(opts=pulumi.ResourceOptions(ignore_changes=["label"]))


def protect() -> None:
    _network(opts=pulumi.ResourceOptions(protect=_config().get_bool("protect") is not False))


def retain_on_delete() -> None:
    _network(opts=pulumi.ResourceOptions(retain_on_delete=True))


def deleted_with() -> None:
    network = _network()
    alto.Firewall(
        "edge",
        network_id=network.id,
        create_default_rules=False,
        opts=pulumi.ResourceOptions(deleted_with=network),
    )


def replacement_trigger() -> None:
    trigger = _config().get("trigger") or "first"
    _network(opts=pulumi.ResourceOptions(replacement_trigger=trigger))


def replace_on_changes() -> None:
    _network(opts=pulumi.ResourceOptions(replace_on_changes=["label"]))


def delete_before_replace() -> None:
    _network(opts=pulumi.ResourceOptions(delete_before_replace=True))


def aliases() -> None:
    name = _config().get("name") or "app"
    _network(name, opts=pulumi.ResourceOptions(aliases=[pulumi.Alias(name="app")]))


class Tier(pulumi.ComponentResource):
    def __init__(self, name: str, opts: pulumi.ResourceOptions | None = None) -> None:
        super().__init__("example:index:Tier", name, None, opts)
        _network("tier-net", opts=pulumi.ResourceOptions(parent=self))
        self.register_outputs({})


def component_alias() -> None:
    name = _config().get("name") or "web"
    Tier(name, opts=pulumi.ResourceOptions(aliases=[pulumi.Alias(name="web")]))


def refresh_drift() -> None:
    network = _network()
    pulumi.export("label", network.label)


def raises_after_declaring() -> None:
    _network()
    if _config().get_bool("fail"):
        raise RuntimeError("the program failed after declaring a network")


def failing_create() -> None:
    network = _network()
    alto.Firewall(
        "edge",
        network_id=_config().get("firewallNetwork") or network.id,
        opts=pulumi.ResourceOptions(depends_on=[network]),
    )


def outputs() -> None:
    network = _network()
    pulumi.export("network", network)
    pulumi.export("nothing", None)
    pulumi.export("nested", {"id": network.id, "secret": pulumi.Output.secret("s3cr3t")})
    credential = alto.ObjectStoreCredential("ci")
    pulumi.export("keys", {"name": credential.name, "key": credential.secret_access_key})
    pulumi.export("listed", [credential.name, credential.access_key_id])


def firewall_rules() -> None:
    alto.Firewall("edge", network_id=_network().id)


def protect_replace() -> None:
    protected = _config().get_bool("protect") is not False
    _network(opts=pulumi.ResourceOptions(protect=protected))


EXTERNAL = "net-external"
"""The id of a network the service holds before the program runs (``SEEDED``)."""
SEEDED = {"networks": [{"id": EXTERNAL, "label": "external", "cidr_v4": "10.40.0.0/24"}]}


def get_existing() -> None:
    network = alto.Network.get("external", EXTERNAL)
    pulumi.export("cidr", network.cidr_v4)


def _delete_external(client: Client) -> None:
    client.networks.delete(EXTERNAL)


def _relabel(label: str) -> Drift:
    def drift(client: Client) -> None:
        (network,) = [n for n in client.networks.list() if not n.default]
        client.networks.update(network.id, label=label)

    return drift


UP = Step("up")
DESTROY = Step("destroy")
NETWORKS = "/v2/vpc/networks"
REFUSED = {"path_prefix": NETWORKS, "status": 403}


def through_plugin() -> None:
    """Resources of both front ends: a network through the plugin (its label from the
    configuration), a credential through the plugin (a secret output), a dynamic network."""
    config = _config()
    net = plugin.Network("through", label=config.get("label") or "through", cidr_v4="10.40.0.0/24")
    key = plugin.ObjectStoreCredential("key")
    alto.Network("plain", label="plain", cidr_v4="10.41.0.0/24")
    pulumi.export("label", net.label)
    pulumi.export("secret", key.secret_access_key)


SCENARIOS: tuple[Scenario, ...] = (
    Scenario("ignore_changes", ignore_changes, (UP, Step("up", {"label": "renamed"}), DESTROY)),
    Scenario(
        "protect",
        protect,
        (UP, Step("destroy"), Step("up", {"protect": "false"}), DESTROY),
    ),
    Scenario("retain_on_delete", retain_on_delete, (UP, DESTROY)),
    Scenario(
        "through_plugin",
        through_plugin,
        (UP, Step("up", {"label": "renamed"}), Step("refresh"), DESTROY),
    ),
    Scenario("deleted_with", deleted_with, (UP, DESTROY)),
    Scenario(
        "replacement_trigger",
        replacement_trigger,
        (UP, UP, Step("up", {"trigger": "second"}), DESTROY),
    ),
    Scenario(
        "replace_on_changes", replace_on_changes, (UP, Step("up", {"label": "renamed"}), DESTROY)
    ),
    Scenario(
        "delete_before_replace",
        delete_before_replace,
        (UP, Step("up", {"cidr": "10.30.0.0/24"}), DESTROY),
    ),
    Scenario("aliases", aliases, (UP, Step("up", {"name": "renamed"}), DESTROY)),
    Scenario("component_alias", component_alias, (UP, Step("up", {"name": "renamed"}), DESTROY)),
    Scenario(
        "refresh_after_up",
        refresh_drift,
        (UP, Step("refresh"), DESTROY),
    ),
    Scenario(
        "refresh_after_drift",
        refresh_drift,
        (UP, Step("refresh", drift=_relabel("drifted")), UP, DESTROY),
    ),
    Scenario(
        "program_raises",
        raises_after_declaring,
        (Step("up", {"fail": "true"}), Step("up", {"fail": "false"}), DESTROY),
    ),
    Scenario(
        "failing_create",
        failing_create,
        (
            Step("up", {"firewallNetwork": "00000000-0000-4000-8000-000000000000"}),
            Step("up", {"firewallNetwork": ""}),
            DESTROY,
        ),
    ),
    Scenario("stack_outputs", outputs, (UP, DESTROY)),
    Scenario("nested_nulls", firewall_rules, (UP, Step("refresh"), DESTROY)),
    Scenario("get_then_destroy", get_existing, (UP, DESTROY), seed=SEEDED),
    Scenario(
        "failed_replacement",
        delete_before_replace,
        (
            UP,
            Step("up", {"cidr": "10.30.0.0/24"}, fault={**REFUSED, "method": "DELETE"}),
            Step("up", {"cidr": "10.30.0.0/24"}),
            DESTROY,
        ),
    ),
    Scenario(
        "failed_create_replacement",
        refresh_drift,
        (UP, Step("up", {"cidr": "10.30.0.0/24"}, fault={**REFUSED, "method": "POST"}), DESTROY),
    ),
    Scenario("failed_refresh", refresh_drift, (UP, Step("refresh", fault=REFUSED), DESTROY)),
    Scenario(
        "protected_replacement",
        protect_replace,
        (UP, Step("up", {"cidr": "10.30.0.0/24"}), Step("up", {"protect": "false"}), DESTROY),
    ),
    Scenario(
        "get_of_a_gone_record",
        get_existing,
        (UP, Step("up", drift=_delete_external), Step("refresh"), DESTROY),
        seed=SEEDED,
    ),
)


def scenario(name: str) -> Scenario:
    (found,) = [s for s in SCENARIOS if s.name == name]
    return found


__all__: list[Any] = ["SCENARIOS", "Scenario", "Step", "scenario"]
