"""A second stack that builds on `private-network`'s outputs.

It reads the network through a StackReference and adds a load balancer and an object store,
grouped in one ComponentResource so that they show as one unit in `pulumi up`.
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


class WebTier(pulumi.ComponentResource):
    """A load balancer in a given network, and a store for its assets."""

    def __init__(
        self,
        name: str,
        network_id: pulumi.Input[str],
        backend_ips: list[str],
        opts: pulumi.ResourceOptions | None = None,
    ) -> None:
        super().__init__("examples:index:WebTier", name, None, opts)
        child = pulumi.ResourceOptions(parent=self)
        self.balancer = alto.LoadBalancer(
            f"{name}-lb",
            network_id=network_id,
            backends=[
                alto.LoadBalancerBackendArgs(
                    ip=ip, protocol="TCP", source_port=443, target_port=8443
                )
                for ip in backend_ips
            ],
            opts=child,
        )
        self.store = alto.ObjectStore(f"{name}-assets", max_size_gb=100, opts=child)
        self.register_outputs(
            {"public_ip": self.balancer.public_ip, "bucket": self.store.bucket_name}
        )


tier = WebTier(
    "web",
    network_id=network_stack.get_output("network_id"),
    backend_ips=config.get_object("backendIps") or ["10.20.0.10", "10.20.0.11"],
)

pulumi.export("public_ip", tier.balancer.public_ip)
pulumi.export("bucket", tier.store.bucket_name)
pulumi.export("endpoint_url", tier.store.endpoint_url)
pulumi.export("access_key_id", tier.store.access_key_id)
pulumi.export("secret_access_key", tier.store.secret_access_key)
