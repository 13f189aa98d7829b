"""``altostratus.testing`` runs the provider plugin's resources beside the dynamic ones: each
through its own provider process (the plugin's, one per provider instance), and says which front
end ran each."""

from __future__ import annotations

from collections.abc import Callable

import pulumi
import pytest

import altostratus
import altostratus.plugin as alto
from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.testing import DeploymentFailed, ProviderProcesses, Stack
from altostratus.testing.runner.fronts import default_provider_name
from altostratus.testing.runner.state import PLUGIN_PROVIDER


def mixed(second_key: str) -> Callable[[], None]:
    """A dynamic network, a plugin network (default provider), and through two explicit
    providers (two accounts of one emulator) a store each; the second account's store key is
    exported, a secret."""

    def program() -> None:
        config = pulumi.Config("altostratus")
        plain = altostratus.Network("plain", cidr_v4="10.60.0.0/24")
        through = alto.Network("through", cidr_v4="10.61.0.0/24")
        first = alto.Provider(
            "first", api_url=config.require("apiUrl"), api_key=config.require_secret("apiKey")
        )
        second = alto.Provider(
            "second", api_url=config.require("apiUrl"), api_key=second_key, region="FRA1"
        )
        mine = altostratus.ObjectStore("mine", opts=pulumi.ResourceOptions(provider=first))
        theirs = alto.ObjectStore("theirs", opts=pulumi.ResourceOptions(provider=second))
        key = alto.ObjectStoreCredential("key", opts=pulumi.ResourceOptions(provider=second))
        pulumi.export("plain_label", plain.label)
        pulumi.export("through_label", through.label)
        pulumi.export("mine", mine.name)
        pulumi.export("secret_key", key.secret_access_key)
        seen = alto.ObjectStore.get("seen", theirs.id, opts=pulumi.ResourceOptions(provider=second))
        pulumi.export("seen", seen.name)
        pulumi.export("theirs", theirs.name)

    return program


def stores(emulator: Emulator, api_key: str, region: str) -> list[str]:
    with Client(api_key=api_key, api_url=emulator.api_url) as client:
        return sorted(
            (s.name or "").rsplit("-", 1)[0] for s in client.object_stores.list(region=region)
        )


def test_a_program_mixing_both_front_ends_and_two_providers_runs_its_whole_cycle(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator, client: Client
) -> None:
    second = fresh_emulator.add_account("second")
    stack = make_stack(mixed(second["api_key"]))

    preview = stack.preview()
    assert preview.resources["Network:through"].op == "create"

    up = stack.up()
    fronts = {key: res.front for key, res in up.resources.items()}
    assert fronts == {
        "Network:plain": "dynamic",
        "Network:through": "plugin",
        "ObjectStore:mine": "plugin",
        "ObjectStore:theirs": "plugin",
        "ObjectStoreCredential:key": "plugin",
        "ObjectStore:seen": "plugin",
    }
    # The state holds the providers as the engine's does (the results leave them out): the
    # default one configured from the stack, each resource naming its provider.
    providers = {res.name: res for res in stack.state.resources if res.type == PLUGIN_PROVIDER}
    assert sorted(providers) == sorted([default_provider_name(), "first", "second"])
    default = providers[default_provider_name()]
    assert default.inputs["apiUrl"] == fresh_emulator.api_url
    (theirs,) = [res for res in stack.state.resources if res.name == "theirs"]
    assert theirs.provider == f"{providers['second'].urn}::{providers['second'].id}"
    labels = sorted(n.label for n in client.networks.list() if not n.default)
    assert labels == ["plain", "through"]
    # Each store in its provider's account and region.
    assert stores(fresh_emulator, second["api_key"], "FRA1") == ["theirs"]
    assert "theirs" not in stores(fresh_emulator, fresh_emulator.api_key, "FRA1")
    assert up.outputs["through_label"].value == "through"
    # Read back through the provider that reaches the second account.
    assert up.outputs["seen"].value == up.outputs["theirs"].value
    assert up.outputs["secret_key"].secret
    # No secret in plain text in the state: the API keys and the store's secret key.
    secret_key = up.outputs["secret_key"].value
    assert stack.state.plain_secrets([fresh_emulator.api_key, second["api_key"], secret_key]) == []

    assert stack.preview().changed() == {}
    refreshed = stack.refresh()
    assert refreshed.expect_no_changes
    assert refreshed.resources["ObjectStore:theirs"].front == "plugin"

    destroyed = stack.destroy()
    assert destroyed.resources["ObjectStore:theirs"].op == "delete"
    assert [n.label for n in client.networks.list() if not n.default] == []
    assert stores(fresh_emulator, second["api_key"], "FRA1") == []
    assert stack.state.resources == []


def test_a_lookup_through_the_plugin_is_answered_by_the_plugin(
    make_stack: Callable[..., Stack], client: Client
) -> None:
    made = client.networks.create(label="outside", region="LON1", cidr_v4="10.70.0.0/24")

    def program() -> None:
        found = alto.get_network(label="outside", region="LON1")
        pulumi.export("id", found.id)

    assert make_stack(program).up().outputs["id"].value == made.id


def test_a_lookup_given_a_provider_asks_in_that_providers_account_in_both_forms(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator, client: Client
) -> None:
    second = fresh_emulator.add_account("second")
    mine = client.networks.create(label="shared-name", region="LON1", cidr_v4="10.71.0.0/24")
    with Client(api_key=second["api_key"], api_url=fresh_emulator.api_url) as theirs_client:
        theirs = theirs_client.networks.create(
            label="shared-name", region="FRA1", cidr_v4="10.72.0.0/24"
        )
        their_default = next(n for n in theirs_client.networks.list(region="FRA1") if n.default)

    def program() -> None:
        config = pulumi.Config("altostratus")
        provider = alto.Provider(
            "second", api_url=config.require("apiUrl"), api_key=second["api_key"], region="FRA1"
        )
        through = pulumi.InvokeOptions(provider=provider)
        # The stack's own account, in the program; the second account's, in both forms.
        pulumi.export("mine", altostratus.get_network(label="shared-name").id)
        pulumi.export("theirs", altostratus.get_network(label="shared-name", opts=through).id)
        pulumi.export("plugin", alto.get_network(label="shared-name", opts=through).id)
        label = pulumi.Output.from_input("shared-name")
        later = altostratus.get_network_output(label=label, opts=through)
        pulumi.export("later", later.apply(lambda found: found.id))
        their_default = alto.get_network_output(default=True, opts=through)
        pulumi.export("their_default", their_default.apply(lambda found: found.id))

    outputs = make_stack(program).up().outputs
    assert outputs["mine"].value == mine.id
    assert outputs["theirs"].value == theirs.id
    assert outputs["plugin"].value == theirs.id
    assert outputs["later"].value == theirs.id
    assert outputs["their_default"].value == their_default.id


def test_a_lookup_given_another_packages_provider_or_options_is_refused_naming_them() -> None:
    class Elsewhere(pulumi.ProviderResource):
        def __init__(self) -> None:
            pass

    elsewhere = Elsewhere()
    elsewhere.package = "aws"
    with pytest.raises(TypeError, match=r"opts\.provider must be an altostratus\.Provider, not a "
                       r"provider of 'aws'"):  # fmt: skip
        altostratus.get_quota(opts=pulumi.InvokeOptions(provider=elsewhere))
    with pytest.raises(TypeError, match=r"get_network: opts must be a pulumi\.InvokeOptions, not "
                       r"ResourceOptions"):  # fmt: skip
        altostratus.get_network(
            label="x",
            opts=pulumi.ResourceOptions(),  # type: ignore[arg-type]
        )


def test_an_import_through_the_plugin_is_refused_in_one_line(
    make_stack: Callable[..., Stack], client: Client
) -> None:
    made = client.networks.create(label="outside", region="LON1", cidr_v4="10.70.0.0/24")

    def program() -> None:
        alto.Network("outside", opts=pulumi.ResourceOptions(import_=made.id))

    with pytest.raises(DeploymentFailed) as failed:
        make_stack(program).up()
    (error,) = failed.value.errors
    assert error.message.startswith("ResourceOptions(import_=...) of a provider plugin resource")


def test_the_plugin_processes_are_bounded_and_started_again_when_needed(
    fresh_emulator: Emulator, client: Client
) -> None:
    # Four processes serve the program (the dynamic provider, the default provider and two
    # explicit ones); once the operation ends, the session keeps its limit of them.
    second = fresh_emulator.add_account("second")
    processes = ProviderProcesses(limit=2)
    try:
        with Stack(mixed(second["api_key"]), emulator=fresh_emulator, processes=processes) as stack:
            stack.up()
            assert processes.running == 2
            stack.destroy()  # the evicted providers' processes start again, from the state
            assert processes.running == 2
        assert stores(fresh_emulator, second["api_key"], "FRA1") == []
        assert [n.label for n in client.networks.list() if not n.default] == []
    finally:
        processes.close()


def test_another_api_url_replaces_a_providers_resources_and_another_setting_does_not(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator
) -> None:
    # As the engine: the plugin's DiffConfig asks to replace a provider whose URL changed, and
    # each of its resources is replaced (created through the new provider, the old one deleted
    # through the old provider).
    def program() -> None:
        config = pulumi.Config()
        provider = alto.Provider(
            "there",
            api_url=config.require("url"),
            api_key=config.require_secret("key"),
            wait_timeout_seconds=float(config.get("wait") or 60),
        )
        alto.Network("app", cidr_v4="10.90.0.0/24", opts=pulumi.ResourceOptions(provider=provider))

    def labels(emulator: Emulator) -> list[str]:
        with Client(api_key=emulator.api_key, api_url=emulator.api_url) as client:
            return [n.label or "" for n in client.networks.list() if not n.default]

    with Emulator() as other:
        stack = make_stack(
            program, config={"url": fresh_emulator.api_url}, secrets={"key": "local-dev-key"}
        )
        first = stack.up().resources["Network:app"].id
        stack.set_config("wait", "30")
        assert stack.preview().changed() == {}  # the provider is updated, the network kept
        stack.up()
        stack.set_config("url", other.api_url)
        assert stack.preview().changed() == {"Network:app": "replace"}
        moved = stack.up().resources["Network:app"]
        assert moved.id != first
        assert labels(fresh_emulator) == [] and labels(other) == ["app"]
        stack.destroy()
        assert labels(other) == []
