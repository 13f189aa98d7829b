import altostratus as alto

net = alto.Network("app", cidr_v4=42)  # expect: "cidr_v4"
alto.Firewall(
    "app",
    network_id=net.id,
    create_default_rules="nope",  # expect: "create_default_rules"
)
alto.get_network_output(default="yes")  # expect: "default"
alto.Network.adopt("net", "id", alto.FirewallArgs(network_id="n"))  # expect: "FirewallArgs"
alto.get_webhook_output(events=[42])  # expect-mypy: List item 0  # expect-pyright: "events"
