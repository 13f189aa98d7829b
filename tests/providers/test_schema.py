"""The provider plugin's package schema: current with the declarations, whole, and read by the
real Pulumi CLI as written."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from altostratus import lookups
from altostratus.providers import Webhook, _config
from altostratus.providers._inputs import inputs_of
from tests.test_package import declared_version
from tools import schema
from tools.codegen import _nested_args, _resources


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(schema.SCHEMA.read_text(encoding="utf-8"))
    return loaded


def test_the_checked_in_schema_is_current() -> None:
    assert schema.main(["--check"]) == 0, "run python -m tools.schema"
    assert schema.SCHEMA.read_text(encoding="utf-8") == schema.rendered()


def test_the_check_fails_when_a_declaration_changes(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A webhook's secret declared no longer secret: the document written would differ, and the
    check says the checked-in one is stale."""
    monkeypatch.setattr(Webhook, "_secret_outputs", ())
    hook = schema.schema()["resources"]["altostratus:index:Webhook"]
    assert "secret" not in hook["properties"]["secret"]
    assert schema.main(["--check"]) == 1
    assert "schema.json is stale: run python -m tools.schema" in capsys.readouterr().err


def refs(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "$ref":
                yield item
            else:
                yield from refs(item)
    elif isinstance(value, list):
        for item in value:
            yield from refs(item)


def test_every_reference_resolves(document: dict[str, Any]) -> None:
    found = set(refs(document))
    assert "#/types/altostratus:index:FirewallInlineRule" in found
    assert "#/types/altostratus:index:LoadBalancerBackend" in found
    for ref in found:
        if ref != "pulumi.json#/Any":
            assert ref.startswith("#/types/"), ref
            assert ref.removeprefix("#/types/") in document["types"], ref
    assert set(document["types"]) <= {ref.removeprefix("#/types/") for ref in found}


def python_name(name: str) -> str:
    """A schema name as the Python SDK Pulumi generates spells it (``cidrV4``: ``cidr_v4``)."""
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


def test_every_resource_has_its_every_input_and_output_with_their_rules(
    document: dict[str, Any],
) -> None:
    resources = document["resources"]
    assert len(resources) == len(_resources()) == 8
    for resource in _resources():
        entry = resources[f"altostratus:index:{resource.__name__}"]
        fields = inputs_of(resource._args_class)
        inputs = entry["inputProperties"]
        assert [python_name(name) for name in inputs] == [field.name for field in fields]
        assert [python_name(name) for name in entry["properties"]] == list(resource._output_names)
        assert entry["requiredInputs"] == [schema.camel(f.name) for f in fields if f.required]
        assert set(entry["required"]) <= set(entry["properties"])
        for field in fields:
            spec = inputs[schema.camel(field.name)]
            assert spec.get("replaceOnChanges", False) is field.replaces, field.name
            secret = field.secret or field.name in resource._secret_outputs
            assert spec.get("secret", False) is secret, field.name
        secrets = {
            python_name(name) for name, spec in entry["properties"].items() if spec.get("secret")
        }
        assert secrets == set(resource._secret_outputs), resource.__name__
        assert entry["aliases"] == [
            {"type": f"pulumi-python:dynamic/altostratus:{resource.__name__}"}
        ]
        assert entry["description"].startswith(" ".join((resource.__doc__ or "").split()[:3]))


def test_what_a_user_reads_of_the_resources(document: dict[str, Any]) -> None:
    resources = document["resources"]
    credential = resources["altostratus:index:ObjectStoreCredential"]
    assert credential["inputProperties"]["secretAccessKeyId"]["secret"] is True
    assert credential["properties"]["secretAccessKey"]["secret"] is True
    rule = resources["altostratus:index:FirewallRule"]
    assert rule["requiredInputs"] == ["firewallId", "protocol"]
    assert rule["inputProperties"]["firewallId"]["replaceOnChanges"] is True
    assert "replaceOnChanges" not in rule["inputProperties"]["protocol"]
    assert (
        "`pulumi import altostratus:index:FirewallRule <name> <firewall_id>:<rule_id>`"
        in (rule["description"])
    )
    assert set(rule["stateInputs"]["properties"]) == {"firewallId", "region"}
    firewall = resources["altostratus:index:Firewall"]["inputProperties"]
    assert firewall["ingressRules"]["items"] == {
        "$ref": "#/types/altostratus:index:FirewallInlineRule"
    }
    backend = document["types"]["altostratus:index:LoadBalancerBackend"]
    assert backend["required"] == ["ip", "protocol", "sourcePort", "targetPort"]
    assert backend["properties"]["sourcePort"]["type"] == "integer"
    assert "stateInputs" not in resources["altostratus:index:Webhook"]  # the account's: no region
    assert len(document["types"]) >= len(_nested_args())
    for name, spec in document["types"].items():  # a description, not a dataclass's signature
        assert spec["description"] and "pulumi.Input" not in spec["description"], name


def test_the_lookups_are_functions_with_their_results(document: dict[str, Any]) -> None:
    functions = document["functions"]
    names = [name for name in lookups.__all__ if name.startswith("get_")]
    wanted = {
        "altostratus:index:get" + "".join(part.title() for part in name.split("_")[1:])
        for name in names
        if not name.endswith("_output")
    }
    assert set(functions) == wanted
    network = functions["altostratus:index:getNetwork"]
    assert set(network["inputs"]["properties"]) == {"id", "label", "default", "region", "name"}
    assert set(network["outputs"]["properties"]) == {
        "id",
        *map(schema.camel, lookups.GetNetworkResult.__dataclass_fields__),
    }
    store = functions["altostratus:index:getObjectStore"]["outputs"]["properties"]
    assert store["secretAccessKey"]["secret"] is True
    regions = functions["altostratus:index:getRegions"]["outputs"]["properties"]
    assert regions["regions"]["items"] == {"$ref": "#/types/altostratus:index:Region"}
    assert "networkCountLimit" in functions["altostratus:index:getQuota"]["outputs"]["properties"]


def test_the_package_its_version_and_its_configuration(document: dict[str, Any]) -> None:
    assert document["name"] == "altostratus"
    assert document["version"] == declared_version()
    variables = document["config"]["variables"]
    assert [f"altostratus:{key}" for key in variables] == list(_config.CONFIG_KEYS)
    assert {key for key, spec in variables.items() if spec.get("secret")} == {"apiKey"}
    assert variables["providerThreads"]["type"] == "integer"
    assert all(spec["description"] for spec in variables.values())
    assert document["provider"]["inputProperties"] == variables


def pulumi(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    command = shutil.which("pulumi")
    assert command is not None
    env = {**os.environ, "PULUMI_HOME": str(home), "PULUMI_SKIP_UPDATE_CHECK": "true"}
    return subprocess.run(
        [command, *args], capture_output=True, text=True, env=env, timeout=120, check=False
    )


def without_empty_lists(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: without_empty_lists(v) for k, v in value.items() if v != []}
    if isinstance(value, list):
        return [without_empty_lists(item) for item in value]
    return value


@pytest.mark.real_engine
def test_the_pulumi_cli_binds_the_schema_and_keeps_every_field(
    document: dict[str, Any], tmp_path: Path
) -> None:
    """``pulumi package get-schema <file>`` binds the schema (an unknown type fails it) and
    writes it back without the fields it does not know: what it writes back is the document
    (but for empty lists, which it leaves out), so every field written is one Pulumi reads."""
    answer = pulumi("package", "get-schema", str(schema.SCHEMA), home=tmp_path)
    assert answer.returncode == 0, answer.stderr
    assert json.loads(answer.stdout) == without_empty_lists(document)

    broken = json.loads(json.dumps(document))
    broken["provider"]["inputProperties"]["maxAnswerBytes"]["type"] = "int"
    (tmp_path / "broken.json").write_text(json.dumps(broken))
    answer = pulumi("package", "get-schema", str(tmp_path / "broken.json"), home=tmp_path)
    assert answer.returncode != 0
    assert "maxAnswerBytes/type: unknown type kind int" in answer.stderr
