"""Resources left unnamed, named by the stack's ``pulumi:autonaming`` through the plugin."""

import pulumi

import altostratus.plugin as alto

ip = alto.ReservedIp("web")
credential = alto.ObjectStoreCredential("deploy")
network = alto.Network("app", cidr_v4="10.41.0.0/24")
pulumi.export("ip_name", ip.name)
pulumi.export("credential_name", credential.name)
pulumi.export("network_label", network.label)
