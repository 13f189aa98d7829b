"""The hooks every kind answers (``providers._records``): a provider that leaves one out cannot
be made, and each of the eight answers them all, the webhook's and the rule's (which are no
regional collection of the client) by themselves."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from altostratus import providers
from altostratus.providers._base import Provider
from altostratus.providers._records import RecordHooks, RegionalRecords
from altostratus.providers._resource import AltostratusResource

PROVIDERS = [
    resource._provider_class
    for resource in (getattr(providers, name) for name in providers.__all__)
    if isinstance(resource, type) and issubclass(resource, AltostratusResource)
]


def test_the_contract_names_the_hooks_only_a_kind_knows() -> None:
    assert RecordHooks.__abstractmethods__ == {"_post", "_put", "_read", "_remove", "_lookup"}
    assert RegionalRecords.__abstractmethods__ == {"_post", "_put", "_records"}


@pytest.mark.parametrize("provider", PROVIDERS, ids=lambda provider: provider.__name__)
def test_every_provider_answers_every_hook(provider: type[Provider[Any]]) -> None:
    assert not inspect.isabstract(provider)
    provider()


@pytest.mark.parametrize("name", ["WebhookProvider", "FirewallRuleProvider"])
def test_the_kinds_outside_a_regional_collection_answer_the_hooks_themselves(name: str) -> None:
    provider = next(p for p in PROVIDERS if p.__name__ == name)
    assert not issubclass(provider, RegionalRecords)
    for hook in ("_post", "_put", "_read", "_remove", "_lookup"):
        assert hook in vars(provider), f"{name}.{hook}"


def test_a_provider_that_leaves_a_hook_out_cannot_be_made() -> None:
    class Incomplete(Provider[Any]):
        kind = "thing"
        fields = ()

        def _post(self, api: Any, inputs: dict[str, Any]) -> Any:
            return None

    with pytest.raises(TypeError, match="_lookup") as refused:
        Incomplete()  # type: ignore[abstract]
    assert "_read" in str(refused.value) and "_remove" in str(refused.value)
