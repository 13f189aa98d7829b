"""Three explicit providers: the first emulator's first account in LON1, the same emulator's
second account in FRA1, and a second emulator in NYC1; a network and a store in each. The
``altostratus`` classes given an ``altostratus.Provider`` go through the plugin too."""

import pulumi

import altostratus
import altostratus.plugin as alto

config = pulumi.Config()
providers = {
    "first": alto.Provider(
        "first",
        api_url=config.require("firstUrl"),
        api_key=config.require_secret("firstKey"),
        region=config.get("firstRegion") or "LON1",
    ),
    "second": alto.Provider(
        "second",
        api_url=config.require("firstUrl"),
        api_key=config.require_secret("secondKey"),
        region="FRA1",
    ),
    "other": alto.Provider(
        "other",
        api_url=config.require("otherUrl"),
        api_key=config.require_secret("otherKey"),
        region="NYC1",
    ),
}
made = {}
for name, provider in providers.items():
    options = pulumi.ResourceOptions(provider=provider)
    made[name] = alto.Network(f"{name}-net", cidr_v4="10.50.0.0/24", opts=options)
    altostratus.ObjectStore(f"{name}-store", opts=options)

# Read back through the provider that reaches it.
seen = alto.Network.get(
    "seen", made["other"].id, opts=pulumi.ResourceOptions(provider=providers["other"])
)
pulumi.export("seen_label", seen.label)

# Looked up through the provider that reaches it: the second account's default network of FRA1
# (the dynamic form's lookup asks that provider's plugin), and a network the program made.
second_default = altostratus.get_network(
    default=True, opts=pulumi.InvokeOptions(provider=providers["second"])
)
pulumi.export("second_default", second_default.id)
other_found = alto.get_network_output(
    id=made["other"].id, opts=pulumi.InvokeOptions(provider=providers["other"])
)
pulumi.export("other_found", other_found.apply(lambda found: found.label))
