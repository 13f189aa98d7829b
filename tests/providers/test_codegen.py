"""The resources' typed constructors and nested typed dicts are generated from the ``Args``."""

from __future__ import annotations

import dataclasses
import inspect
from pathlib import Path
from typing import Any

import pytest

from altostratus.providers._resource import AltostratusResource
from altostratus.providers.load_balancer import LoadBalancerBackendArgs, LoadBalancerBackendArgsDict
from altostratus.providers.network import Network, NetworkArgs
from tools import codegen as _codegen


def test_the_generated_code_is_current() -> None:
    stale = _codegen.stale_files()
    assert not stale, f"stale: {sorted(p.name for p in stale)}; run python -m {_codegen.__name__}"


def test_the_constructor_lists_every_input_with_its_declared_type() -> None:
    parameters = inspect.signature(Network.__init__).parameters
    for field in dataclasses.fields(NetworkArgs):
        assert parameters[field.name].annotation == field.type
        assert parameters[field.name].kind is inspect.Parameter.KEYWORD_ONLY
    assert list(parameters)[:4] == ["self", "resource_name", "args", "opts"]


def test_the_typed_dict_has_the_nested_args_fields() -> None:
    fields = dataclasses.fields(LoadBalancerBackendArgs)
    required = {field.name for field in fields if field.default is dataclasses.MISSING}
    declared = {
        field.name: field.type
        if field.name in required
        else f"NotRequired[{str(field.type).removesuffix(' | None')}]"
        for field in fields
    }
    annotations = LoadBalancerBackendArgsDict.__annotations__
    assert {name: ref.__forward_arg__ for name, ref in annotations.items()} == declared
    assert "health_check_port" in set(declared) - required


def test_a_block_edited_by_hand_is_stale_and_rewritten() -> None:
    path = Path(inspect.getfile(Network))
    source = path.read_text(encoding="utf-8")
    edited = source.replace("        cidr_v4: pulumi.Input[str] | None = None,\n", "", 1)
    assert edited != source
    assert _codegen.formatted(path, _codegen.render(edited, _codegen.blocks())) == source


def test_an_args_field_renamed_alone_makes_the_code_stale() -> None:
    texts = _codegen.blocks()
    renamed = texts["Network.__init__"].replace("cidr_v4", "cidr_v6")
    path = Path(inspect.getfile(Network))
    source = path.read_text(encoding="utf-8")
    assert _codegen.render(source, {**texts, "Network.__init__": renamed}) != source


LOOKUP_RESULTS = _codegen._lookup_results()


def test_every_resource_but_the_rule_has_a_lookup_result() -> None:
    assert sorted(resource.__name__ for resource, _ in LOOKUP_RESULTS) == [
        "Firewall",
        "LoadBalancer",
        "Network",
        "ObjectStore",
        "ObjectStoreCredential",
        "ReservedIp",
        "Webhook",
    ]


@pytest.mark.parametrize(
    ("resource", "result"), LOOKUP_RESULTS, ids=[r.__name__ for r, _ in LOOKUP_RESULTS]
)
def test_a_lookup_result_has_the_id_and_every_output_of_its_resource(
    resource: type[AltostratusResource[Any]], result: type[Any]
) -> None:
    fields = {field.name: field.type for field in dataclasses.fields(result)}
    assert fields.pop("id") == "str"
    annotations = inspect.get_annotations(resource)
    expected = {}
    for name in resource._output_names:
        declared = str(annotations[name])
        value = declared.removeprefix("pulumi.Output[").removesuffix("]")
        expected[name] = declared if name in resource._secret_outputs else f"{value} | None"
    assert fields == expected
