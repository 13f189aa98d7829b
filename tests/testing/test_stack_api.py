"""The public ``Stack`` API as a user's test meets it: the fixture, configuration, secrets,
stack references, resources of other providers and the progress events."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pulumi
import pytest

import altostratus as alto
from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.testing import DeploymentFailed, Stack, StepEvent, secret
from tests.support.account import leftovers


class Bucket(pulumi.CustomResource):
    """A resource of another provider, as a composed program declares one."""

    website_endpoint: pulumi.Output[str]

    def __init__(self, name: str, bucket_prefix: str) -> None:
        super().__init__(
            "aws:s3/bucket:Bucket",
            name,
            {"bucket_prefix": bucket_prefix, "website_endpoint": None},
        )


def labelled_network() -> None:
    config = pulumi.Config()
    network = alto.Network("app", label=config.require("label"), cidr_v4="10.30.0.0/24")
    pulumi.export("label", network.label)
    pulumi.export("token", config.require_secret("token"))


def test_the_fixture_runs_a_program_against_a_fresh_emulator(
    altostratus_stack: Callable[..., Stack], altostratus_fresh_emulator: Emulator
) -> None:
    stack = altostratus_stack(labelled_network, config={"label": "blue"})
    stack.set_config("token", "t0k3n-0123456789", secret=True)

    result = stack.up()

    assert result.operations == {"Network:app": "create"}
    network = result.resources["Network:app"]
    assert network.inputs["cidr_v4"] == "10.30.0.0/24"
    assert network.outputs["label"] == "blue"
    with Client(
        api_key=altostratus_fresh_emulator.api_key, api_url=altostratus_fresh_emulator.api_url
    ) as client:
        assert client.networks.get(network.id).label == "blue"
    assert result.outputs["label"].value == "blue"
    assert not result.outputs["label"].secret
    assert result.outputs["token"].value == "t0k3n-0123456789"
    assert result.outputs["token"].secret

    stack.set_config("label", "green")
    assert stack.up().operations == {"Network:app": "update"}
    assert stack.destroy().operations == {"Network:app": "delete"}
    assert leftovers(altostratus_fresh_emulator) == {}


def test_a_check_failure_names_the_resource_and_the_property(
    altostratus_stack: Callable[..., Stack], altostratus_fresh_emulator: Emulator
) -> None:
    def program() -> None:
        alto.Network("app", cidr_v4="10.30.0.0/33")

    stack = altostratus_stack(program)
    with pytest.raises(DeploymentFailed) as failed:
        stack.up()
    (failure,) = failed.value.check_failures
    assert (failure.resource, failure.property) == ("Network:app", "cidr_v4")
    assert "Network:app" not in failed.value.result.resources or (
        failed.value.result.resources["Network:app"].op != "create"
    )
    assert leftovers(altostratus_fresh_emulator) == {}


def test_a_stack_reference_sees_the_outputs_the_test_gives(
    altostratus_stack: Callable[..., Stack],
) -> None:
    def program() -> None:
        other = pulumi.StackReference("organization/network/prod")
        network = alto.Network("app", label=other.get_output("label"), cidr_v4="10.31.0.0/24")
        pulumi.export("label", network.label)
        pulumi.export("password", other.get_output("password"))

    stack = altostratus_stack(
        program, references={"organization/network/prod": {"label": "shared"}}
    )
    stack.set_reference(
        "organization/network/prod", {"label": "shared", "password": secret("hunter2")}
    )
    result = stack.up()

    assert result.resources["Network:app"].inputs["label"] == "shared"
    assert result.outputs["label"].value == "shared"
    assert result.outputs["password"].value == "hunter2"
    assert result.outputs["password"].secret


def test_resources_of_other_providers_get_the_outputs_the_test_supplies(
    altostratus_stack: Callable[..., Stack],
) -> None:
    seen: list[tuple[str, str, dict[str, Any]]] = []

    def supply(type_: str, name: str, inputs: dict[str, Any]) -> dict[str, Any]:
        seen.append((type_, name, inputs))
        return {"id": "logs-7f3a", "website_endpoint": "http://127.0.0.1:9/logs"}

    def program() -> None:
        bucket = Bucket("logs", bucket_prefix="logs-")
        alto.Webhook("events", url=bucket.website_endpoint, events=["network.created"])

    stack = altostratus_stack(program, other_resources=supply)
    preview = stack.preview()
    assert preview.operations == {"Bucket:logs": "create", "Webhook:events": "create"}
    assert seen == []  # a preview asks no provider to create anything

    result = stack.up()
    assert seen == [("aws:s3/bucket:Bucket", "logs", {"bucket_prefix": "logs-"})]
    bucket = result.resources["Bucket:logs"]
    assert (bucket.op, bucket.type, bucket.id) == ("create", "aws:s3/bucket:Bucket", "logs-7f3a")
    assert bucket.inputs == {"bucket_prefix": "logs-"}
    assert bucket.outputs["website_endpoint"] == "http://127.0.0.1:9/logs"
    assert result.resources["Webhook:events"].outputs["url"] == "http://127.0.0.1:9/logs"

    assert stack.up().changed() == {}
    assert stack.destroy().operations == {"Webhook:events": "delete", "Bucket:logs": "delete"}


def test_without_supplied_outputs_another_provider_gives_back_its_inputs(
    altostratus_stack: Callable[..., Stack],
) -> None:
    def program() -> None:
        bucket = Bucket("logs", bucket_prefix="logs-")
        pulumi.export("prefix", bucket.bucket_prefix)

    result = altostratus_stack(program).up()
    assert result.resources["Bucket:logs"].outputs == {"bucket_prefix": "logs-"}
    assert result.outputs["prefix"].value == "logs-"


def test_each_step_is_reported_as_it_starts_and_ends(
    altostratus_stack: Callable[..., Stack],
) -> None:
    events: list[StepEvent] = []
    stack = altostratus_stack(labelled_network, config={"label": "a"}, on_event=events.append)
    stack.set_config("token", "t", secret=True)
    stack.up()

    steps = [(e.op, e.name, e.status) for e in events if e.op != "check"]
    assert steps == [("create", "app", "started"), ("create", "app", "done")]
    assert events[-1].type.endswith(":Network")
    assert events[-1].elapsed > 0


def test_a_program_looking_up_an_existing_network_builds_on_it(
    altostratus_stack: Callable[..., Stack], altostratus_fresh_emulator: Emulator
) -> None:
    emulator = altostratus_fresh_emulator
    with Client(api_key=emulator.api_key, api_url=emulator.api_url) as client:
        shared = client.networks.create(label="shared", cidr_v4="10.33.0.0/24")

    def program() -> None:
        found = alto.get_network(label="shared")
        alto.Firewall("app", network_id=found.id, create_default_rules=False)

    stack = altostratus_stack(program)
    assert stack.preview().operations == {"Firewall:app": "create"}
    result = stack.up()
    assert result.resources["Firewall:app"].inputs["network_id"] == shared.id
    stack.destroy()
    assert leftovers(emulator) == {"networks": 1}


def test_configuration_values_other_than_text_are_set_as_json(
    altostratus_stack: Callable[..., Stack],
) -> None:
    def program() -> None:
        config = pulumi.Config()
        pulumi.export("ips", config.get_object("ips"))
        pulumi.export("enabled", config.get_bool("enabled"))
        pulumi.export("size", config.get_int("size"))
        pulumi.export("name", config.get("name"))

    stack = altostratus_stack(program, config={"ips": ["10.0.0.1", "10.0.0.2"], "size": 3})
    stack.set_config("enabled", True)
    stack.set_config("name", "[not json]")
    assert stack.up().output_values() == {
        "ips": ["10.0.0.1", "10.0.0.2"],
        "enabled": True,
        "size": 3,
        "name": "[not json]",
    }


def _project(folder: Path, name: str, label: str) -> Path:
    folder.mkdir()
    (folder / "Pulumi.yaml").write_text(f"name: {name}\nruntime: python\n")
    (folder / "tier.py").write_text(
        "import altostratus as alto\n\n"
        f"network = alto.Network('app', label={label!r}, cidr_v4='10.34.0.0/24')\n"
    )
    (folder / "__main__.py").write_text(
        "import pulumi\n\nimport tier\n\npulumi.export('label', tier.network.label)\n"
    )
    return folder


def test_each_run_imports_the_projects_own_modules_afresh(
    altostratus_stack: Callable[..., Stack], tmp_path: Path
) -> None:
    blue = altostratus_stack(_project(tmp_path / "blue", "blue", "blue"))
    assert blue.up().output_values() == {"label": "blue"}
    # A module declaring resources when imported declares them again in the next run.
    assert blue.up().operations == {"Network:app": "same"}
    blue.destroy()

    green = altostratus_stack(_project(tmp_path / "green", "green", "green"))
    assert green.up().output_values() == {"label": "green"}
    green.destroy()


def test_a_project_runs_from_its_main_folder_as_the_language_host_runs_it(
    altostratus_stack: Callable[..., Stack], tmp_path: Path
) -> None:
    project = tmp_path / "project"
    (project / "infra").mkdir(parents=True)
    (project / "Pulumi.yaml").write_text("name: moved\nruntime: python\nmain: infra/\n")
    (project / "infra" / "cidr.txt").write_text("10.35.0.0/24\n")
    (project / "infra" / "__main__.py").write_text(
        "from pathlib import Path\n\nimport pulumi\n\nimport altostratus as alto\n\n"
        "network = alto.Network('app', cidr_v4=Path('cidr.txt').read_text().strip())\n"
        "pulumi.export('cidr', network.cidr_v4)\n"
    )
    here = Path.cwd()
    stack = altostratus_stack(project)
    assert stack.up().output_values() == {"cidr": "10.35.0.0/24"}
    assert Path.cwd() == here
    stack.destroy()


def test_a_reference_the_test_did_not_give_fails_saying_how_to_give_it(
    altostratus_stack: Callable[..., Stack], capfd: pytest.CaptureFixture[str]
) -> None:
    def program() -> None:
        other = pulumi.StackReference("organization/network/prod")
        alto.Network("app", label=other.get_output("label"), cidr_v4="10.36.0.0/24")

    with pytest.raises(DeploymentFailed) as failed:
        altostratus_stack(program).preview()
    (line,) = failed.value.result.failures
    assert "no outputs given for the stack reference 'organization/network/prod'" in line
    assert "set_reference" in line
    assert "Traceback" not in capfd.readouterr().err


def test_a_project_reads_its_config_defaults_and_its_stack_file(
    altostratus_stack: Callable[..., Stack], tmp_path: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "Pulumi.yaml").write_text(
        "name: configured\nruntime: python\nconfig:\n"
        "  cidr:\n    type: string\n    default: 10.37.0.0/24\n"
        "  label: from-the-project\n"
    )
    (project / "Pulumi.dev.yaml").write_text(
        "config:\n  configured:label: from-the-stack\n"
        "  configured:ips:\n    - 10.37.0.10\n"
        "  configured:token:\n    secure: v1:AAAAAAAAAAAA:BBBBBBBB\n"
    )
    (project / "__main__.py").write_text(
        "import pulumi\n\nimport altostratus as alto\n\nconfig = pulumi.Config()\n"
        "network = alto.Network('app', label=config.require('label'), "
        "cidr_v4=config.require('cidr'))\n"
        "pulumi.export('ips', config.get_object('ips'))\n"
        "pulumi.export('token', config.get_secret('token'))\n"
    )
    dev = altostratus_stack(project, stack="dev")
    result = dev.up()
    assert result.resources["Network:app"].inputs["cidr_v4"] == "10.37.0.0/24"
    assert result.resources["Network:app"].inputs["label"] == "from-the-stack"
    # The SDK leaves an output of None out of the stack's outputs (the secret is not set).
    assert result.output_values() == {"ips": ["10.37.0.10"]}
    dev.set_config("label", "from-the-test")  # the test's word comes last
    assert dev.up().resources["Network:app"].inputs["label"] == "from-the-test"
    dev.destroy()

    other = altostratus_stack(project, stack="prod", secrets={"token": "t"})
    result = other.up()
    assert result.resources["Network:app"].inputs["label"] == "from-the-project"
    assert result.outputs["token"].value == "t" and result.outputs["token"].secret


def test_a_stack_reference_reads_the_stack_it_names_not_its_own_name(
    altostratus_stack: Callable[..., Stack],
) -> None:
    def program() -> None:
        other = pulumi.StackReference("network", stack_name="organization/network/prod")
        pulumi.export("label", other.get_output("label"))

    stack = altostratus_stack(program, references={"organization/network/prod": {"label": "x"}})
    assert stack.up().output_values() == {"label": "x"}


def test_a_warmed_provider_process_serves_the_first_configuration_and_an_unused_one_is_ended() -> (
    None
):
    from altostratus.testing import ProviderProcesses

    processes = ProviderProcesses()
    processes.warm()
    spare = processes._spare
    assert spare is not None
    with Emulator() as emulator:
        config = {"altostratus:apiUrl": emulator.api_url, "altostratus:apiKey": emulator.api_key}
        process = processes.get(config)
        assert process.process is spare and processes._spare is None
        assert processes.get(dict(config)) is process
    processes.close()
    assert spare.poll() is not None
    unused = ProviderProcesses()
    unused.warm()
    left = unused._spare
    assert left is not None
    unused.close()
    assert left.poll() is not None


@pytest.mark.parametrize(
    ("program", "named"),
    [
        ("raise SystemExit(3)", "the provider process ended before it served (exit status 3)"),
        # The output closes a moment before the exit: the status is still the one named.
        (
            "import os, time; os.close(1); time.sleep(0.3); raise SystemExit(3)",
            "the provider process ended before it served (exit status 3)",
        ),
        (
            "print('warming up', flush=True); raise SystemExit(0)",
            "the provider process announced no port before it served (it printed 'warming up')",
        ),
    ],
    ids=["ended", "output-closed-before-exit", "printed-something-else"],
)
def test_a_provider_process_that_ends_before_serving_fails_the_first_step_in_one_line(
    fresh_emulator: Emulator, program: str, named: str
) -> None:
    """The runner connects to the provider process at its first call: a process that ended
    without announcing a port fails that step, naming it, instead of hanging or a traceback."""
    import sys

    from altostratus.testing import ProviderProcess, ProviderProcesses

    processes = ProviderProcesses()
    processes.warm(ProviderProcess.launch(command=(sys.executable, "-c", program)))
    stack = Stack(
        lambda: alto.Network("app", cidr_v4="10.9.0.0/24"),
        emulator=fresh_emulator,
        processes=processes,
    )
    try:
        with pytest.raises(DeploymentFailed) as failed:
            stack.up()
    finally:
        processes.close()
    (failure,) = failed.value.result.failures
    assert named in failure
    assert "\n" not in failure
    assert leftovers(fresh_emulator) == {}
