"""The Pulumi program of ``benchmarks.engine_ops``: one resource graph, made by one of five sides.

Stack configuration: ``side`` (``ours``: altostratus's resources, the dynamic form; ``plugin``:
the same through the provider plugin, ``altostratus.plugin``; ``floor``: the same graph as
``floor:index:*`` resources of the do-nothing plugin ``benchmarks/floor_plugin.py``; ``sdk``: the
same as Pulumi SDK dynamic resources whose provider does nothing; ``bridged``: the same made its
natural way with the deprecated bridged Terraform provider's SDK, ``pulumi_civo``), ``groups``
(0: the network, firewall with 3 inline rules, reserved IP, credential and store; N: N groups of
10 resources, network, firewall, 3 rules, 3 reserved IPs, credential, store; 8 for the bridged
side, the 3 rules inline on its firewall: it has no resource of a rule alone) and ``updated`` (an
IP renamed and one rule's port changed, per group). The plugin's names in the service end in
``-p``, the bridged side's in ``-c``: their stacks live beside ours' in the same emulator, and a
reserved IP's name is unique in a region.
"""

from __future__ import annotations

import uuid
from typing import Any

import pulumi
from pulumi.dynamic import (
    CreateResult,
    DiffResult,
    ReadResult,
    Resource,
    ResourceProvider,
    UpdateResult,
)

config = pulumi.Config()
side = config.require("side")
groups = config.get_int("groups") or 0
updated = config.get_bool("updated") or False
tag = {"plugin": "-p", "bridged": "-c"}.get(side, "")

if side == "ours":
    import altostratus
elif side == "plugin":
    import altostratus.plugin as altostratus  # type: ignore[no-redef]


class NothingProvider(ResourceProvider):
    """The SDK's dynamic provider at its floor: every call answered at once."""

    def create(self, props: Any) -> CreateResult:
        return CreateResult(uuid.uuid4().hex, props)

    def diff(self, _id: str, olds: Any, news: Any) -> DiffResult:
        keys = {k for k in {*olds, *news} if not k.startswith("__")}
        return DiffResult(changes=any(olds.get(k) != news.get(k) for k in keys))

    def read(self, id_: str, props: Any) -> ReadResult:
        return ReadResult(id_, props)

    def update(self, _id: str, _olds: Any, news: Any) -> UpdateResult:
        return UpdateResult(news)

    def delete(self, _id: str, _props: Any) -> None:
        pass


class Nothing(Resource):
    def __init__(self, name: str, props: dict[str, Any]) -> None:
        super().__init__(NothingProvider(), name, props)


def make(kind: str, resource_name: str, /, **props: Any) -> Any:
    if side in ("ours", "plugin"):
        return getattr(altostratus, kind)(resource_name, **props)
    if side == "floor":
        return pulumi.CustomResource(f"floor:index:{kind}", resource_name, props)
    return Nothing(resource_name, props)


def key_of(credential: Any) -> Any:
    return credential.access_key_id if side in ("ours", "plugin") else credential.id


def inline_rules(changed: bool) -> list[dict[str, Any]]:
    return [
        {"protocol": "tcp", "start_port": "22", "cidr": ["10.0.0.0/8"], "label": "ssh"},
        {"protocol": "tcp", "start_port": "8443" if changed else "443", "label": "https"},
        {"protocol": "icmp", "label": "ping"},
    ]


def bridged(group: int | None) -> None:
    """One group of the graph (``None``: the 5 resources) made by the bridged provider, its
    rules inline on the firewall."""
    import pulumi_civo as civo  # type: ignore[import-not-found,unused-ignore]

    at = "" if group is None else str(group)
    if group is None:
        network = civo.Network("net", label=f"net{tag}", cidr_v4="10.20.0.0/24")
        rules = [("tcp", "22", ["10.0.0.0/8"], "ssh"),
                 ("tcp", "8443" if updated else "443", ["0.0.0.0/0"], "https"),
                 ("icmp", None, ["0.0.0.0/0"], "ping")]  # fmt: skip
        ips = {"ip": f"ip-b{tag}" if updated else f"ip-a{tag}"}
    else:
        network = civo.Network(f"net{at}", label=f"net{at}{tag}", cidr_v4=f"10.{at}.0.0/24")
        ports = ("2222" if updated else "22", "443", "8080")
        rules = [("tcp", port, ["10.0.0.0/8"], f"rule {n}") for n, port in enumerate(ports)]
        ips = {
            f"ip{at}-{n}": f"ip{at}-{n}{'-b' if updated and n == 0 else ''}{tag}" for n in range(3)
        }
    civo.Firewall(
        f"fw{at}", network_id=network.id, create_default_rules=False,
        ingress_rules=[
            civo.FirewallIngressRuleArgs(action="allow", protocol=protocol, port_range=port,
                                         cidrs=cidrs, label=label)
            for protocol, port, cidrs, label in rules
        ],
    )  # fmt: skip
    for resource_name, name in ips.items():
        civo.ReservedIp(resource_name, name=name)
    credential = civo.ObjectStoreCredential(f"cred{at}")
    civo.ObjectStore(f"store{at}", max_size_gb=500, access_key_id=credential.access_key_id)


def ours(group: int | None) -> None:
    """One group of the graph (``None``: the 5 resources) made by the other sides: ours, the
    plugin's, the floor's or the SDK's."""
    if group is None:
        network = make("Network", "net", label=f"net{tag}", cidr_v4="10.20.0.0/24")
        make("Firewall", "fw", network_id=network.id, create_default_rules=False,
             ingress_rules=inline_rules(updated))  # fmt: skip
        make("ReservedIp", "ip", name=f"ip-b{tag}" if updated else f"ip-a{tag}")
        credential = make("ObjectStoreCredential", "cred")
        make("ObjectStore", "store", max_size_gb=500, access_key_id=key_of(credential))
        return
    network = make("Network", f"net{group}", label=f"net{group}{tag}", cidr_v4=f"10.{group}.0.0/24")
    firewall = make("Firewall", f"fw{group}", network_id=network.id, create_default_rules=False)
    for number, port in enumerate(("2222" if updated else "22", "443", "8080")):
        make("FirewallRule", f"rule{group}-{number}", firewall_id=firewall.id, protocol="tcp",
             start_port=port, cidr=["10.0.0.0/8"], direction="ingress", action="allow",
             label=f"rule {number}")  # fmt: skip
    for number in range(3):
        renamed = "-b" if updated and number == 0 else ""
        make("ReservedIp", f"ip{group}-{number}", name=f"ip{group}-{number}{renamed}{tag}")
    credential = make("ObjectStoreCredential", f"cred{group}")
    make("ObjectStore", f"store{group}", max_size_gb=500, access_key_id=key_of(credential))


for group in range(groups) if groups else [None]:
    (bridged if side == "bridged" else ours)(group)
