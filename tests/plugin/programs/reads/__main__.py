"""Records made outside the stack, brought in through the plugin: one imported
(``ResourceOptions(import_=...)``), one read (``get``), one looked up (Invoke), one adopted.
``case`` asks for a mistake instead: ``adopt-twice`` (one record adopted by both front ends),
``bad-input`` (an input its check refuses), ``failing-create`` (a create the service refuses),
``other-version`` (a resource asking for another plugin version)."""

import pulumi

import altostratus
import altostratus.plugin as alto

config = pulumi.Config()
case = config.get("case")
if case == "adopt-twice":
    args = alto.NetworkArgs(label="adopted", cidr_v4="10.63.0.0/24")
    altostratus.Network.adopt("dynamic", config.require("adoptedId"), args)
    alto.Network.adopt("plugin", config.require("adoptedId"), args)
elif case == "bad-input":
    alto.Network("bad", cidr_v4="8.8.8.0/24")
elif case == "failing-create":
    alto.Network("orphan-rules-net", cidr_v4="10.65.0.0/24")
    alto.FirewallRule(
        "orphan",
        firewall_id="no-such-firewall",
        region="LON1",
        protocol="tcp",
        start_port="22",
        cidr="10.0.0.0/8",
        direction="ingress",
        action="allow",
    )
elif case == "other-version":
    alto.Network("versioned", opts=pulumi.ResourceOptions(version="0.0.1"))
else:
    taken = alto.Network(
        "taken",
        label="imported",
        cidr_v4="10.61.0.0/24",
        opts=pulumi.ResourceOptions(import_=config.require("importedId")),
    )
    seen = alto.Network.get("seen", config.require("readId"))
    found = alto.get_network(label="looked-up")
    found_later = alto.get_network_output(label=seen.label)
    adopted = alto.Network.adopt(
        "adopted",
        config.require("adoptedId"),
        alto.NetworkArgs(label="adopted", cidr_v4="10.63.0.0/24"),
    )
    pulumi.export("taken", taken.id)
    pulumi.export("seen_label", seen.label)
    pulumi.export("seen_cidr", seen.cidr_v4)
    pulumi.export("found", found.id)
    pulumi.export("found_cidr", found.cidr_v4)
    pulumi.export("adopted", adopted.id)
    pulumi.export("found_later", found_later.id)
