"""The eight resources through the provider plugin; ``label`` changes the network's label and
``url`` the webhook's (both in place)."""

import pulumi

import altostratus.plugin as alto

config = pulumi.Config()
label = config.get("label") or "app"

network = alto.Network("app", label=label, cidr_v4="10.40.0.0/24")
firewall = alto.Firewall("edge", network_id=network.id, create_default_rules=False)
rule = alto.FirewallRule(
    "ssh",
    firewall_id=firewall.id,
    protocol="tcp",
    start_port="22",
    cidr="10.0.0.0/8",
    direction="ingress",
    action="allow",
    label="ssh",
)
guarded = alto.Firewall(
    "guarded",
    network_id=network.id,
    create_default_rules=False,
    ingress_rules=[
        alto.FirewallInlineRuleArgs(
            protocol="tcp", start_port="443", cidr="0.0.0.0/0", action="allow", label="https"
        )
    ],
)
balancer = alto.LoadBalancer(
    "web",
    network_id=network.id,
    backends=[
        alto.LoadBalancerBackendArgs(
            ip="10.40.0.10", protocol="TCP", source_port=80, target_port=8080
        )
    ],
)
address = alto.ReservedIp("web", assign_to_id=balancer.id)
store = alto.ObjectStore("assets", max_size_gb=500)
credential = alto.ObjectStoreCredential("deploy", max_size_gb=500)
hook = alto.Webhook(
    "events",
    url=config.get("url") or "http://127.0.0.1:9/a",
    secret=config.require_secret("hookSecret"),
)

pulumi.export("network_id", network.id)
pulumi.export("label", network.label)
pulumi.export("cidr", network.cidr_v4)
pulumi.export("rule_port", rule.start_port)
pulumi.export("inline", guarded.ingress_rules)
pulumi.export("public_ip", address.ip)
pulumi.export("store", store.name)
pulumi.export("credential_secret", credential.secret_access_key_id)
