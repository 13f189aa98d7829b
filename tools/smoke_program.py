"""A user's program, as the installed-wheel smoke test (``tools/smoke_wheel.py``) checks it with
``mypy --strict`` outside the checkout: the resources with typed inputs and outputs, a lookup and
the client. Nothing in it may need the checkout."""

from __future__ import annotations

import pulumi

import altostratus as alto
from altostratus.client import Client, NotFoundError

network = alto.Network("web", label="web", cidr_v4="10.30.0.0/24")
firewall = alto.Firewall("web", network_id=network.id, create_default_rules=False)
https = alto.FirewallRule(
    "https", firewall_id=firewall.id, protocol="tcp", start_port="443", cidr=["0.0.0.0/0"]
)
balancer = alto.LoadBalancer(
    "web",
    alto.LoadBalancerArgs(
        network_id=network.id,
        firewall_id=firewall.id,
        backends=[
            alto.LoadBalancerBackendArgs(
                ip="10.30.0.10", protocol="TCP", source_port=443, target_port=8443
            ),
            {"ip": "10.30.0.11", "protocol": "TCP", "source_port": 443, "target_port": 8443},
        ],
    ),
)
address = alto.ReservedIp("web", assign_to_id=balancer.id)
store = alto.ObjectStore("assets", max_size_gb=250)

public_ip: pulumi.Output[str] = address.ip
endpoint: pulumi.Output[str] = store.endpoint_url
regions: pulumi.Output[list[str]] = alto.get_regions_output().apply(lambda found: found.codes)
pulumi.export("public_ip", public_ip)
pulumi.export("endpoint", endpoint)


def network_labels(api_url: str, api_key: str) -> list[str]:
    """The client as a script beside the program uses it."""
    with Client(api_url=api_url, api_key=api_key) as client:
        try:
            return [record.label or record.id for record in client.networks.list()]
        except NotFoundError as error:
            return [f"{error.status} {error.code}"]
