"""A private network with a firewall that lets in only ssh and https."""

import pulumi

import altostratus as alto

config = pulumi.Config()
cidr = config.get("cidr") or "10.20.0.0/24"
admin_cidr = config.get("adminCidr") or "10.0.0.0/8"

network = alto.Network("app", label="app", cidr_v4=cidr)
firewall = alto.Firewall("app", network_id=network.id, create_default_rules=False)

ssh = alto.FirewallRule(
    "ssh",
    firewall_id=firewall.id,
    protocol="tcp",
    start_port="22",
    cidr=[admin_cidr],
    direction="ingress",
    action="allow",
    label="ssh from the admin range",
)
https = alto.FirewallRule(
    "https",
    firewall_id=firewall.id,
    protocol="tcp",
    start_port="443",
    cidr=["0.0.0.0/0"],
    direction="ingress",
    action="allow",
    label="https from anywhere",
)

pulumi.export("network_id", network.id)
pulumi.export("network_cidr", network.cidr)
pulumi.export("firewall_id", firewall.id)
