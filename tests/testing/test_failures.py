"""How a failed operation reports what failed: ``Result.errors``, one ``Failure`` record each."""

from __future__ import annotations

from collections.abc import Callable

import pulumi
import pytest

import altostratus as alto
from altostratus.emulator import Emulator
from altostratus.testing import DeploymentFailed, Failure, Stack
from tests.support.account import leftovers

NETWORK = "pulumi-python:dynamic/altostratus:Network"


def failure_of(stack: Stack) -> list[Failure]:
    with pytest.raises(DeploymentFailed) as failed:
        stack.up()
    # The exception carries the failures itself too, as the testing guide shows.
    assert failed.value.errors == failed.value.result.errors
    return failed.value.errors


def test_a_check_failure_names_the_resource_and_the_property(
    make_stack: Callable[..., Stack],
) -> None:
    def program() -> None:
        alto.Network("app", cidr_v4="10.0.0.0/33")

    (error,) = failure_of(make_stack(program))
    assert (error.op, error.type, error.kind, error.name) == ("check", NETWORK, "Network", "app")
    assert error.urn == f"urn:pulumi:test::test::{NETWORK}::app"
    assert error.property == "cidr_v4"
    assert "cidr_v4" in error.message
    assert str(error) == f"{error.urn}: check failed: cidr_v4: {error.message}"


def test_a_program_error_is_reported_on_the_stack(make_stack: Callable[..., Stack]) -> None:
    def program() -> None:
        raise KeyError("region")

    (error,) = failure_of(make_stack(program, project="web", stack="dev"))
    assert (error.op, error.type) == ("program", "pulumi:pulumi:Stack")
    assert error.urn == "urn:pulumi:dev::web::pulumi:pulumi:Stack::web-dev"
    assert error.message == "KeyError: 'region'"
    assert error.property is None


def test_a_reference_without_outputs_names_the_stack_it_reads(
    make_stack: Callable[..., Stack],
) -> None:
    def program() -> None:
        pulumi.StackReference("shared", stack_name="organization/network/prod")

    (error,) = failure_of(make_stack(program))
    assert (error.op, error.name) == ("read", "shared")
    assert error.reference == "organization/network/prod"


def test_a_failed_step_names_its_operation(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator
) -> None:
    def program() -> None:
        alto.Network("app", cidr_v4="10.46.0.0/24")

    fresh_emulator.app.faults.add(method="POST", path_prefix="/v2/vpc", status=400)
    (error,) = failure_of(make_stack(program))
    assert (error.op, error.kind, error.name) == ("create", "Network", "app")
    assert leftovers(fresh_emulator) == {}


def test_only_the_first_invalid_resource_is_reported(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator
) -> None:
    """The engine checks one registration at a time and stops at the first invalid one."""

    def program() -> None:
        alto.Network("first", cidr_v4="10.0.0.0/33")
        alto.Network("second", cidr_v4="10.0.0.0/34")

    errors = failure_of(make_stack(program))
    assert [(error.op, error.property) for error in errors] == [("check", "cidr_v4")]
    assert errors[0].name in ("first", "second")
    assert leftovers(fresh_emulator) == {}


def test_a_refused_create_reads_as_the_engine_shows_it_in_one_line(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator
) -> None:
    def program() -> None:
        alto.Network("app", cidr_v4="10.46.0.0/24")

    fresh_emulator.app.faults.add(method="POST", path_prefix="/v2/vpc", status=400)
    (error,) = failure_of(make_stack(program))
    assert error.message.startswith(
        "altostratus.ProviderError: could not create network 'app': 400 injected_fault: "
    )
    assert "\n" not in error.message
