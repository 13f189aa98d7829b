"""A webhook subscribed to network and firewall events."""

import pulumi

import altostratus as alto

config = pulumi.Config()
url = config.get("url") or "http://127.0.0.1:8789/"

hook = alto.Webhook(
    "infra-events",
    url=url,
    events=[
        "network.created",
        "network.updated",
        "network.deleted",
        "firewall.created",
        "firewall.updated",
        "firewall.deleted",
    ],
)

pulumi.export("webhook_id", hook.id)
pulumi.export("secret", hook.secret)
