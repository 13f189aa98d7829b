"""One network per region, and everything else following its records into their regions.

Only the networks and the credentials name a region: each firewall is made in its network's
region, each rule in its firewall's, each balancer in its network's, each reserved IP in its
balancer's and each store in its credential's.
"""

import pulumi

import altostratus as alto

REGIONS = ("LON1", "FRA1", "NYC1", "PHX1")

for index, region in enumerate(REGIONS):
    name = region.lower()
    subnet = f"10.{60 + index}.0"
    network = alto.Network(
        f"net-{name}", label=f"net-{name}", region=region, cidr_v4=f"{subnet}.0/24"
    )
    firewall = alto.Firewall(f"fw-{name}", network_id=network.id, create_default_rules=False)
    for label, port in (("https", "443"), ("ssh", "22")):
        alto.FirewallRule(
            f"{label}-{name}",
            firewall_id=firewall.id,
            protocol="tcp",
            start_port=port,
            cidr=["0.0.0.0/0"],
            label=label,
        )
    balancer = alto.LoadBalancer(
        f"web-{name}",
        network_id=network.id,
        firewall_id=firewall.id,
        backends=[
            alto.LoadBalancerBackendArgs(
                ip=f"{subnet}.10", protocol="TCP", source_port=443, target_port=8443
            )
        ],
    )
    address = alto.ReservedIp(f"ip-{name}", assign_to_id=balancer.id)
    credential = alto.ObjectStoreCredential(f"key-{name}", region=region)
    store = alto.ObjectStore(f"media-{name}", access_key_id=credential.access_key_id)

    pulumi.export(
        f"{name}_regions",
        {
            "firewall": firewall.region,
            "balancer": balancer.region,
            "reserved_ip": address.region,
            "store": store.region,
        },
    )
    pulumi.export(f"{name}_public_ip", address.ip)
