"""A load balancer in front of two backends, with a reserved public address."""

import pulumi

import altostratus as alto

config = pulumi.Config()
algorithm = config.get("algorithm") or "round_robin"
cidr = config.get("cidr") or "10.30.0.0/24"

network = alto.Network("web", label="web", cidr_v4=cidr)
balancer = alto.LoadBalancer(
    "web",
    network_id=network.id,
    algorithm=algorithm,
    backends=[
        alto.LoadBalancerBackendArgs(
            ip="10.30.0.10", protocol="TCP", source_port=80, target_port=8080
        ),
        alto.LoadBalancerBackendArgs(
            ip="10.30.0.11", protocol="TCP", source_port=80, target_port=8080
        ),
    ],
)
address = alto.ReservedIp("web", assign_to_id=balancer.id)

pulumi.export("load_balancer_id", balancer.id)
pulumi.export("public_ip", address.ip)
pulumi.export("private_ip", balancer.private_ip)
