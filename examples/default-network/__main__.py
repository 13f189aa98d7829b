"""A web tier in the account's default network, opened on another stack's firewall.

The default network is found by lookup: it exists in every region and no stack owns it. The
firewall belongs to the `private-network` stack: its id comes through a StackReference, and
`Firewall.get` reads it into this program without managing it. This stack adds its own rule to
that firewall, a load balancer and a reserved IP for it.
"""

from __future__ import annotations

import pulumi

import altostratus as alto

config = pulumi.Config()
# With `pulumi login --local` the organization is `organization`; the network stack is the
# one of the same name as this stack unless `networkStack` says otherwise.
network_stack = pulumi.StackReference(
    config.get("networkStack") or f"organization/altostratus-private-network/{pulumi.get_stack()}"
)

default = alto.get_network(default=True)
if default.cidr is None:
    raise ValueError(f"the default network {default.id} reports no address range")
shared_firewall = alto.Firewall.get(
    "platform-firewall", network_stack.require_output("firewall_id").apply(str)
)

alto.FirewallRule(
    "web-from-default-network",
    firewall_id=shared_firewall.id,
    protocol="tcp",
    start_port="8443",
    cidr=[default.cidr],
    label="web tier in the default network",
)
balancer = alto.LoadBalancer(
    "web",
    network_id=default.id,
    backends=[
        alto.LoadBalancerBackendArgs(ip=ip, protocol="TCP", source_port=443, target_port=8443)
        for ip in config.get_object("backendIps") or ["10.0.0.10", "10.0.0.11"]
    ],
)
address = alto.ReservedIp("web", assign_to_id=balancer.id)

pulumi.export("default_network_id", default.id)
pulumi.export("firewall_name", shared_firewall.name)
pulumi.export("public_ip", address.ip)
