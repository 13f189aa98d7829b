"""Resource options as the engine honours them, through the real provider process and emulator."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pulumi
import pytest

import altostratus as alto
from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.testing import DeploymentFailed, Stack, StepEvent
from tests.support.account import leftovers

NETWORK = "pulumi-python:dynamic/altostratus:Network"


def client(emulator: Emulator) -> Client:
    return Client(api_key=emulator.api_key, api_url=emulator.api_url)


def calls(events: list[StepEvent]) -> list[tuple[str, str]]:
    """The provider calls that change something: (operation, resource name)."""
    changing = ("create", "create-replacement", "update", "delete", "delete-replaced")
    return [(e.op, e.name) for e in events if e.status == "done" and e.op in changing]


def network_with(**options: Any) -> Callable[[], None]:
    """A network whose label, range and name servers come from the configuration."""

    def program() -> None:
        config = pulumi.Config()
        alto.Network(
            "app",
            label=config.get("label") or "first",
            cidr_v4=config.get("cidr") or "10.60.0.0/24",
            nameservers_v4=config.get_object("nameservers") or ["1.1.1.1"],
            opts=pulumi.ResourceOptions(**options),
        )

    return program


@pytest.mark.parametrize(
    ("ignored", "config"),
    [
        (["label"], {"label": "second"}),
        (["nameservers_v4[0]"], {"nameservers": ["9.9.9.9"]}),
    ],
    ids=["top-level", "nested"],
)
def test_ignored_changes_leave_the_resource_alone(
    make_stack: Callable[..., Stack],
    fresh_emulator: Emulator,
    ignored: list[str],
    config: dict[str, Any],
    engine_kind: str,
) -> None:
    stack = make_stack(network_with(ignore_changes=ignored), engine=engine_kind)
    created = stack.up().resources["Network:app"]

    for key, value in config.items():
        stack.set_config(key, value)
    assert stack.preview().operations == {"Network:app": "same"}
    again = stack.up().resources["Network:app"]

    assert again.op == "same"
    assert again.id == created.id
    assert (again.inputs["label"], again.inputs["nameservers_v4"]) == ("first", ["1.1.1.1"])
    with client(fresh_emulator) as api:
        live = api.networks.get(created.id)
    assert (live.label, live.nameservers_v4) == ("first", ["1.1.1.1"])
    stack.destroy()


def test_a_protected_resource_is_neither_deleted_nor_replaced(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator
) -> None:
    events: list[StepEvent] = []
    stack = make_stack(network_with(protect=True), on_event=events.append)
    network = stack.up().resources["Network:app"]

    with pytest.raises(DeploymentFailed, match="cannot be deleted because it is protected") as no:
        stack.destroy()
    (error,) = no.value.result.errors
    assert (error.urn, error.op) == (network.urn, "delete")
    assert network.urn in str(no.value)

    stack.set_config("cidr", "10.61.0.0/24")  # a new range replaces a network
    with pytest.raises(DeploymentFailed, match="as it is currently marked for protection"):
        stack.preview()
    events.clear()
    with pytest.raises(DeploymentFailed, match=f'unable to replace resource "{network.urn}"'):
        stack.up()
    assert calls(events) == []
    assert [res.id for res in stack.state.resources] == [network.id]
    assert leftovers(fresh_emulator) == {"networks": 1}

    # Unprotecting and removing the protection in the same update is allowed, as by the engine.
    stack.program = network_with(protect=False)
    assert stack.up().operations == {"Network:app": "replace"}
    stack.destroy()
    assert leftovers(fresh_emulator) == {}


def test_a_protected_resource_no_longer_declared_stays(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator
) -> None:
    stack = make_stack(network_with(protect=True))
    network = stack.up().resources["Network:app"]
    stack.program = lambda: None
    with pytest.raises(DeploymentFailed, match=f'resource "{network.urn}" cannot be deleted'):
        stack.up()
    assert [res.urn for res in stack.state.resources] == [network.urn]
    assert leftovers(fresh_emulator) == {"networks": 1}


def test_a_retained_resource_outlives_its_stack(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator
) -> None:
    events: list[StepEvent] = []
    stack = make_stack(network_with(retain_on_delete=True), on_event=events.append)
    network = stack.up().resources["Network:app"]

    assert stack.destroy().operations == {"Network:app": "delete"}
    assert stack.state.resources == []
    assert calls(events) == [("create", "app")]  # the delete called no provider
    with client(fresh_emulator) as api:
        assert api.networks.get(network.id).label == "first"


def test_a_component_passes_retain_on_delete_to_its_children(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator
) -> None:
    """``inheritFromParent``: a child leaving ``retain_on_delete`` unset takes its parent's."""
    stack = make_stack(lambda: Tier("web", opts=pulumi.ResourceOptions(retain_on_delete=True)))
    stack.up()
    assert stack.destroy().operations == {"Network:web-net": "delete", "Tier:web": "delete"}
    assert leftovers(fresh_emulator) == {"networks": 1}


def test_a_firewall_deleted_with_its_network_goes_with_it(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator
) -> None:
    """The engine skips the firewall's delete; the service deletes a network's firewalls with
    it, so nothing is left."""

    def program() -> None:
        network = alto.Network("app", cidr_v4="10.62.0.0/24")
        alto.Firewall(
            "edge",
            network_id=network.id,
            create_default_rules=False,
            opts=pulumi.ResourceOptions(deleted_with=network),
        )

    stack = make_stack(program)
    stack.up()
    assert stack.destroy().operations == {"Firewall:edge": "delete", "Network:app": "delete"}
    assert leftovers(fresh_emulator) == {}


def test_a_resource_deleted_with_another_is_left_to_the_service(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator
) -> None:
    """The engine skips the balancer's delete: the network's delete is then refused by the
    service, which does not delete a network a load balancer still uses."""

    def program() -> None:
        network = alto.Network("app", cidr_v4="10.62.0.0/24")
        backend = {"ip": "10.62.0.9", "protocol": "TCP", "source_port": 80, "target_port": 80}
        alto.LoadBalancer(
            "edge",
            network_id=network.id,
            backends=[backend],
            opts=pulumi.ResourceOptions(deleted_with=network),
        )

    stack = make_stack(program, config={"altostratus:waitTimeoutSeconds": "0.2"})
    stack.up()

    with pytest.raises(DeploymentFailed, match="still in use") as failed:
        stack.destroy()
    # The network's failed delete is reported too, as the engine's events report it.
    assert failed.value.result.operations == {
        "LoadBalancer:edge": "delete",
        "Network:app": "delete",
    }
    assert [error.name for error in failed.value.result.errors] == ["app"]
    # The balancer is left with its own firewall.
    assert leftovers(fresh_emulator) == {
        "networks": 1,
        "load_balancers": 1,
        "firewalls": 1,
        "firewall_rules": 1,
    }


def test_a_changed_replacement_trigger_replaces_without_asking_the_provider(
    make_stack: Callable[..., Stack],
) -> None:
    events: list[StepEvent] = []

    def program() -> None:
        trigger = pulumi.Config().get("trigger") or "one"
        alto.Network(
            "app",
            cidr_v4="10.63.0.0/24",
            opts=pulumi.ResourceOptions(replacement_trigger=trigger),
        )

    stack = make_stack(program, on_event=events.append)
    first = stack.up().resources["Network:app"]
    assert stack.up().operations == {"Network:app": "same"}

    stack.set_config("trigger", "two")
    events.clear()
    replaced = stack.up().resources["Network:app"]
    assert replaced.op == "replace"
    assert replaced.id != first.id
    assert not [e for e in events if e.op == "diff"]
    stack.destroy()


def test_a_resource_is_replaced_with_the_resources_it_names(
    make_stack: Callable[..., Stack],
) -> None:
    def program() -> None:
        network = alto.Network("app", cidr_v4=pulumi.Config().get("cidr") or "10.64.0.0/24")
        alto.Webhook(
            "events",
            url="http://127.0.0.1:9/hook",
            events=["network.created"],
            opts=pulumi.ResourceOptions(replace_with=[network]),
        )

    stack = make_stack(program)
    stack.up()
    stack.set_config("cidr", "10.65.0.0/24")
    expected = {"Network:app": "replace", "Webhook:events": "replace"}
    assert stack.preview().changed() == expected
    assert stack.up().changed() == expected
    stack.destroy()


def test_replace_on_changes_cannot_act_on_a_dynamic_resource(
    make_stack: Callable[..., Stack],
) -> None:
    """The dynamic provider's diff names no changed keys, which ``replace_on_changes`` needs:
    the engine updates the label in place all the same."""
    stack = make_stack(network_with(replace_on_changes=["label"]))
    stack.up()
    stack.set_config("label", "second")
    assert stack.up().operations == {"Network:app": "update"}
    stack.destroy()


def labelled(suffix: str) -> Callable[[pulumi.ResourceTransformArgs], Any]:
    def transform(args: pulumi.ResourceTransformArgs) -> pulumi.ResourceTransformResult | None:
        if not args.type_.endswith(":Network"):
            return None
        props = {**args.props, "label": f"{args.props.get('label')}-{suffix}"}
        return pulumi.ResourceTransformResult(props, args.opts)

    return transform


class Tier(pulumi.ComponentResource):
    def __init__(self, name: str, opts: pulumi.ResourceOptions | None = None) -> None:
        super().__init__("test:index:Tier", name, None, opts)
        alto.Network(
            f"{name}-net",
            label="net",
            cidr_v4="10.66.0.0/24",
            opts=pulumi.ResourceOptions(parent=self, transforms=[labelled("own")]),
        )


def test_transforms_run_the_resources_own_then_its_parents_then_the_stacks(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator
) -> None:
    def program() -> None:
        pulumi.runtime.register_resource_transform(labelled("stack"))
        Tier("web", opts=pulumi.ResourceOptions(transforms=[labelled("parent")]))

    result = make_stack(program).up()

    network = result.resources["Network:web-net"]
    assert network.inputs["label"] == "net-own-parent-stack"
    with client(fresh_emulator) as api:
        assert api.networks.get(network.id).label == "net-own-parent-stack"


def test_a_transform_may_set_options(make_stack: Callable[..., Stack]) -> None:
    def protect(args: pulumi.ResourceTransformArgs) -> pulumi.ResourceTransformResult:
        return pulumi.ResourceTransformResult(
            args.props,
            pulumi.ResourceOptions.merge(args.opts, pulumi.ResourceOptions(protect=True)),
        )

    stack = make_stack(network_with(transforms=[protect]))
    stack.up()
    with pytest.raises(DeploymentFailed, match="protected"):
        stack.destroy()


def test_renaming_a_component_with_an_alias_carries_its_children_over(
    make_stack: Callable[..., Stack], engine_kind: str
) -> None:
    def program() -> None:
        name = pulumi.Config().get("name") or "web"
        aliases = [] if name == "web" else [pulumi.Alias(name="web")]
        Tier(name, opts=pulumi.ResourceOptions(aliases=aliases))

    stack = make_stack(program, engine=engine_kind)
    first = stack.up().resources["Network:web-net"]
    stack.set_config("name", "site")
    renamed = stack.up()
    assert renamed.operations == {"Tier:site": "same", "Network:site-net": "same"}
    assert renamed.resources["Network:site-net"].id == first.id
    stack.destroy()


def test_importing_a_resource_under_its_own_id_is_no_import(
    make_stack: Callable[..., Stack],
) -> None:
    stack = make_stack(network_with())
    network = stack.up().resources["Network:app"]
    stack.program = network_with(import_=network.id)
    stack.set_config("label", "second")
    assert stack.up().operations == {"Network:app": "update"}
    stack.destroy()


def test_a_resource_of_the_deployment_is_found_by_its_urn(make_stack: Callable[..., Stack]) -> None:
    """``ResourceOptions(urn=...)`` asks the engine for a resource this deployment registered
    (its builtin ``getResource``); nothing is registered for it."""

    def program() -> None:
        network = alto.Network("app", label="found", cidr_v4="10.69.0.0/24")
        again = network.urn.apply(
            lambda urn: alto.Network("again", opts=pulumi.ResourceOptions(urn=urn)).label
        )
        pulumi.export("label", again)

    result = make_stack(program).up()
    assert result.operations == {"Network:app": "create"}
    assert result.outputs["label"].value == "found"


def test_transformations_are_applied_by_the_sdk(make_stack: Callable[..., Stack]) -> None:
    def relabel(args: pulumi.ResourceTransformationArgs) -> pulumi.ResourceTransformationResult:
        return pulumi.ResourceTransformationResult({**args.props, "label": "legacy"}, args.opts)

    result = make_stack(network_with(transformations=[relabel])).up()
    assert result.resources["Network:app"].inputs["label"] == "legacy"


def test_custom_timeouts_are_accepted_as_the_dynamic_provider_ignores_them(
    make_stack: Callable[..., Stack],
) -> None:
    stack = make_stack(network_with(custom_timeouts=pulumi.CustomTimeouts(create="1s")))
    assert stack.up().operations == {"Network:app": "create"}
    stack.destroy()
