"""Sources as an attacker writes them, and what a written project may hold: the program's
statements (only the import, ``adopt`` declarations and exports), ``Pulumi.yaml``'s keys, and
printed text without control characters."""

from __future__ import annotations

import ast
import json
import unicodedata
from pathlib import Path
from typing import Any

import yaml

import altostratus as alto

RESOURCES = {
    "Network",
    "Firewall",
    "FirewallRule",
    "ReservedIp",
    "ObjectStore",
    "ObjectStoreCredential",
}


def terraform(*entries: dict[str, Any]) -> dict[str, Any]:
    """A ``terraform show -json`` document of ``entries`` (each a resource object as Terraform
    writes it: ``address``, ``type``, ``name``, ``values``...; ``mode`` defaults to managed)."""
    resources = [{"mode": "managed", **entry} for entry in entries]
    return {"format_version": "1.0", "values": {"root_module": {"resources": resources}}}


def network(name: str = "main", id_: str = "n-1", **values: Any) -> dict[str, Any]:
    return {
        "address": f"civo_network.{name}",
        "type": "civo_network",
        "name": name,
        "values": {"id": id_, "label": "shop", "region": "LON1", **values},
    }


def pulumi(project: str, stack: str, *resources: tuple[str, str, str, dict[str, Any]]) -> Any:
    """A ``pulumi stack export`` of bridged resources ``(type token, name, id, inputs)``."""
    entries: list[dict[str, Any]] = [
        {
            "urn": f"urn:pulumi:{stack}::{project}::pulumi:pulumi:Stack::{project}-{stack}",
            "custom": False,
            "type": "pulumi:pulumi:Stack",
        }
    ]
    for kind, name, id_, inputs in resources:
        entries.append(
            {
                "urn": f"urn:pulumi:{stack}::{project}::{kind}::{name}",
                "custom": True,
                "id": id_,
                "type": kind,
                "inputs": inputs,
                "outputs": {**inputs, "id": id_},
            }
        )
    return {"version": 3, "deployment": {"resources": entries}}


def write(path: Path, document: Any) -> Path:
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def _is_alto(node: ast.expr, suffix: str = "") -> str | None:
    """``X`` when ``node`` is ``alto.X`` with ``X`` a resource name (plus ``suffix``)."""
    if (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "alto"
        and node.attr.endswith(suffix)
        and node.attr.removesuffix(suffix) in RESOURCES
    ):
        return node.attr.removesuffix(suffix)
    return None


def _is_data(node: ast.expr, variables: set[str]) -> bool:
    """A literal (text, number, boolean, a list of them) or ``<declared variable>.<output>``."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (str, int, float, bool))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):  # -1
        return isinstance(node.operand, ast.Constant) and type(node.operand.value) in (int, float)
    if isinstance(node, ast.List):
        return all(_is_data(item, variables) for item in node.elts)
    return (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id in variables
        and node.attr in ("id", "access_key_id")
    )


def declarations(
    program: str, module: str = "altostratus"
) -> list[tuple[str, str, str, str, dict[str, Any]]]:
    """The program's declarations, ``(variable, resource, name, id, inputs)``, each input a
    literal's value or ``"<variable>.<output>"``; an ``AssertionError`` when the program holds
    anything but its docstring, the imports of ``module`` (a front end's) as ``alto`` and of
    pulumi, ``adopt`` declarations and ``pulumi.export`` calls."""
    tree = ast.parse(program)
    body = list(tree.body)
    assert isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
    assert isinstance(body[0].value.value, str)
    found = []
    variables: set[str] = set()
    for statement in body[1:]:
        if isinstance(statement, ast.Import):
            assert [(a.name, a.asname) for a in statement.names] in (
                [(module, "alto")],
                [("pulumi", None)],
            ), ast.dump(statement)
            continue
        if isinstance(statement, ast.Expr):  # pulumi.export("name", <data>)
            call = statement.value
            assert isinstance(call, ast.Call) and ast.unparse(call.func) == "pulumi.export"
            assert all(_is_data(arg, variables) for arg in call.args) and not call.keywords
            continue
        assert isinstance(statement, ast.Assign), ast.dump(statement)
        (target,) = statement.targets
        assert isinstance(target, ast.Name) and target.id not in variables
        assert target.id.isidentifier() and target.id not in ("alto", "pulumi")
        call = statement.value
        assert isinstance(call, ast.Call) and not call.keywords
        assert isinstance(call.func, ast.Attribute) and call.func.attr == "adopt"
        resource = _is_alto(call.func.value)
        assert resource is not None, ast.dump(call.func)
        name, id_, args = call.args
        assert isinstance(name, ast.Constant) and isinstance(name.value, str)
        assert isinstance(id_, ast.Constant) and isinstance(id_.value, str)
        assert isinstance(args, ast.Call) and _is_alto(args.func, "Args") == resource
        assert not args.args
        inputs = {}
        for keyword in args.keywords:
            assert keyword.arg is not None and _is_data(keyword.value, variables)
            inputs[keyword.arg] = (
                ast.unparse(keyword.value)
                if isinstance(keyword.value, ast.Attribute)
                else ast.literal_eval(keyword.value)
            )
            assert keyword.arg in getattr(alto, f"{resource}Args").__dataclass_fields__
        found.append((target.id, resource, name.value, id_.value, inputs))
        variables.add(target.id)
    return found


def project_settings(folder: Path) -> dict[str, Any]:
    """``Pulumi.yaml`` as YAML reads it, holding only the keys ``migrate`` writes."""
    settings = yaml.safe_load((folder / "Pulumi.yaml").read_text(encoding="utf-8"))
    assert isinstance(settings, dict) and list(settings) == ["name", "description", "runtime"]
    assert settings["runtime"] == {
        "name": "python",
        "options": {"toolchain": "pip", "virtualenv": "venv"},
    }
    return settings


def terminal_safe(text: str) -> bool:
    """Whether ``text`` holds nothing a terminal acts on but line ends."""
    return all(
        ch == "\n" or unicodedata.category(ch) not in ("Cc", "Cf", "Zl", "Zp", "Cs") for ch in text
    )
