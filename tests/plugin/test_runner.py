"""``altostratus.testing`` runs the dynamic resources only: a resource through the plugin is
refused in one line naming the way out, never faked."""

from __future__ import annotations

from collections.abc import Callable

import pulumi
import pytest

import altostratus
import altostratus.plugin as alto
from altostratus.client import Client
from altostratus.testing import DeploymentFailed, Stack


@pytest.mark.parametrize("through", ["plugin class", "explicit provider"])
def test_a_plugin_resource_is_refused_by_the_runner(
    make_stack: Callable[..., Stack], client: Client, through: str
) -> None:
    def program() -> None:
        if through == "plugin class":
            alto.Network("app")
        else:
            provider = altostratus.Provider("other", region="FRA1")
            altostratus.Network("app", opts=pulumi.ResourceOptions(provider=provider))

    stack = make_stack(program)
    with pytest.raises(DeploymentFailed) as failed:
        stack.up()
    (error,) = failed.value.errors
    assert error.message == (
        "Network goes through the provider plugin (altostratus.plugin, or an altostratus.Provider "
        "in its options), which altostratus.testing does not run: use altostratus's own classes, "
        'or run the stack with engine="pulumi"'
    )
    assert [n.label for n in client.networks.list() if not n.default] == []
