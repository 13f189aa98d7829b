"""The testing guide's account of Pulumi's resource options under the runner is exact: its table
names every option ``pulumi.ResourceOptions`` offers, once; its "what it does not do" list names
exactly those the runner does not apply; and each of those it says fails does fail, naming it."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from typing import Any

import pulumi
import pytest

import altostratus as alto
from altostratus.emulator import Emulator
from altostratus.testing import DeploymentFailed, Stack
from tests.support.account import leftovers
from tests.support.doc_pages import page

SECTION = page("docs/testing.md")


def table() -> dict[str, str]:
    """Each option of the resource options table, with what its row says."""
    rows = SECTION.split("| option | under the runner |", 1)[1].split("\n\n", 1)[0]
    found: dict[str, str] = {}
    for row in rows.strip().splitlines()[1:]:
        names, says = row.strip("|").split("|", 1)
        for name in re.findall(r"`(\w+)`", names):
            assert name not in found, f"{name} has two rows"
            found[name] = says.strip()
    return found


def not_done() -> set[str]:
    """The options the "what it does not do" list names."""
    listed = SECTION.split("What it does not do, so that nobody mistakes it for the engine:", 1)
    bullet = listed[1].split("\n- ")[1]
    return set(re.findall(r"`(\w+)`", bullet))


def offered() -> set[str]:
    return set(inspect.signature(pulumi.ResourceOptions.__init__).parameters) - {"self"}


def test_the_table_names_every_resource_option_once() -> None:
    assert set(table()) == offered()


def failing(says: str) -> bool:
    return says.startswith("refused") or any(
        words in says for words in ("deployment fails in one line", "program fails")
    )


def test_the_list_of_what_it_does_not_do_names_the_options_it_does_not_apply() -> None:
    unapplied = {
        name for name, says in table().items() if says.startswith("no effect") or failing(says)
    }
    assert not_done() == unapplied


def hook_binding() -> pulumi.ResourceHookBinding:
    return pulumi.ResourceHookBinding(before_create=[pulumi.ResourceHook("noted", lambda a: None)])


FAILING: dict[str, tuple[Callable[[], Any], str]] = {
    "provider": (lambda: pulumi.ProviderResource("pulumi-python", "own", {}), "provider"),
    "version": (lambda: "1.2.3", "version"),
    "plugin_download_url": (lambda: "https://example.invalid", "plugin_download_url"),
    "hooks": (hook_binding, "hooks"),
    "state_migrations": (lambda: [lambda args: None], "state migrations"),
    "env_var_mappings": (lambda: {"FROM": "TO"}, "envVarMappings"),
}
"""How to give each option the guide says fails or is refused, and the words its failure
names it by."""


def test_every_failing_option_has_a_program() -> None:
    assert {name for name, says in table().items() if failing(says)} == set(FAILING)


@pytest.mark.parametrize("option", sorted(FAILING))
def test_an_option_the_runner_does_not_apply_fails_in_one_line_naming_it(
    make_stack: Callable[..., Stack], fresh_emulator: Emulator, option: str
) -> None:
    value, named = FAILING[option]

    def program() -> None:
        opts = pulumi.ResourceOptions(**{option: value()})
        alto.Network("app", cidr_v4="10.68.0.0/24", opts=opts)

    with pytest.raises(DeploymentFailed) as failed:
        make_stack(program).up()
    (line,) = failed.value.result.failures
    assert named in line
    assert "\n" not in line
    assert leftovers(fresh_emulator) == {}
