"""A user's program with every resource, both forms of inputs, nested inputs as classes and as
dicts, and typed outputs: a type checker in strict mode finds nothing wrong."""

import pulumi

import altostratus as alto

network = alto.Network("app", label="app", cidr_v4="10.40.0.0/24", nameservers_v4=["1.1.1.1"])
other = alto.Network("other", alto.NetworkArgs(region="FRA1", ipv4_enabled=True))
firewall = alto.Firewall(
    "app",
    network_id=network.id,
    create_default_rules=False,
    opts=pulumi.ResourceOptions(depends_on=[other]),
)
rule = alto.FirewallRule(
    "ssh",
    alto.FirewallRuleArgs(
        firewall_id=firewall.id, protocol="tcp", start_port="22", cidr=["192.168.0.0/16"]
    ),
)
balancer = alto.LoadBalancer(
    "web",
    network_id=network.id,
    algorithm="least_connections",
    backends=[
        alto.LoadBalancerBackendArgs(
            ip="10.40.0.10", protocol="TCP", source_port=80, target_port=8080
        ),
        {"ip": "10.40.0.11", "protocol": "TCP", "source_port": 80, "target_port": 8080},
    ],
)
backend: alto.LoadBalancerBackendArgsDict = {
    "ip": "10.40.0.12",
    "protocol": "UDP",
    "source_port": 53,
    "target_port": 5353,
}
dns = alto.LoadBalancer(
    "dns", alto.LoadBalancerArgs(network_id=network.id, backends=[backend], name="dns")
)
address = alto.ReservedIp("web", assign_to_id=balancer.id)
store = alto.ObjectStore("assets", max_size_gb=250)
credential = alto.ObjectStoreCredential("uploader", max_size_gb=10)
webhook = alto.Webhook(
    "events", url="https://hooks.example.com/alto", events=["loadbalancer.created"]
)

cidr: pulumi.Output[str] = network.cidr_v4
free: pulumi.Output[int] = network.free_ip_count
rules: pulumi.Output[int] = firewall.rules_count
ports: pulumi.Output[str] = rule.ports
public_ip: pulumi.Output[str] = address.ip
endpoint: pulumi.Output[str] = store.endpoint_url
secret: pulumi.Output[str] = credential.secret_access_key
disabled: pulumi.Output[bool] = webhook.disabled
pulumi.export("cidr", cidr)
pulumi.export("dns_private_ip", dns.private_ip)


def remaining_quota(client: alto.Client) -> int:
    try:
        return len(client.networks.list())
    except alto.NotFoundError as error:
        return error.status


shared = alto.get_network(label="shared", region="FRA1")
shared_cidr: str | None = shared.cidr
default_network: pulumi.Output[alto.GetNetworkResult] = alto.get_network_output(
    default=True, region=network.region
)
uploader = alto.get_object_store_credential(name="uploader")
uploader_key: pulumi.Output[str] = uploader.secret_access_key
hook_secret: pulumi.Output[str] = alto.get_webhook_output(url=webhook.url).apply(
    lambda found: found.secret
)
events_hook = alto.get_webhook(url="https://hooks.example.com/alto", events=["ip.created"])
hook_events: list[str] | None = events_hook.events
limit: int | None = alto.get_quota().network_count_limit
existing = alto.Network.get("existing", shared.id, region="FRA1")
existing_rule = alto.FirewallRule.get("existing-ssh", "rule-id", firewall_id=firewall.id)
existing_label: pulumi.Output[str] = existing.label


def lookup_failed(error: alto.NoSingleMatchError) -> str:
    return str(error)


legacy = alto.Firewall.adopt(
    "legacy", "fw-id", alto.FirewallArgs(name="legacy", network_id=network.id)
)
legacy_rules: pulumi.Output[int] = legacy.rules_count
regions: list[str] = alto.get_regions().codes
home_region: pulumi.Output[str | None] = alto.get_regions_output(country="GB").apply(
    lambda found: found.default_region
)
