"""A web tier: a balancer behind a reserved address, and a firewall that lets in only https.

The network is this stack's own, or another stack's when `networkStack` names it.
"""

import pulumi

import altostratus as alto

config = pulumi.Config()
network_stack = config.get("networkStack")
if network_stack:
    network_id = pulumi.StackReference(network_stack).get_output("network_id")
else:
    network = alto.Network("web", cidr_v4=config.get("cidr") or "10.70.0.0/24")
    network_id = network.id

firewall = alto.Firewall("web", network_id=network_id, create_default_rules=False)
https = alto.FirewallRule(
    "https",
    firewall_id=firewall.id,
    protocol="tcp",
    start_port=config.get("httpsPort") or "443",
    cidr=["0.0.0.0/0"],
    direction="ingress",
    action="allow",
)
balancer = alto.LoadBalancer(
    "web",
    network_id=network_id,
    backends=[
        alto.LoadBalancerBackendArgs(ip=ip, protocol="TCP", source_port=443, target_port=8443)
        for ip in ("10.70.0.10", "10.70.0.11")
    ],
)
address = alto.ReservedIp("web", assign_to_id=balancer.id)

pulumi.export("public_ip", address.ip)
pulumi.export("load_balancer_id", balancer.id)
pulumi.export("network_id", network_id)
