"""The resources' API reference: every input and output of every resource, from the declarations.

A resource's inputs are the fields of its ``<Name>Args`` dataclass and their rules (``arg``,
``required``); its outputs the annotated ``pulumi.Output`` attributes of its class; their
descriptions the attribute docstrings under them. This writes, for each resource, its docstring,
its two call forms with their real signatures (a required input has no default), a table of its
inputs (type, default, what a change does, secret) and one of its outputs (type, secret); and a
table for each nested input (a firewall's inline rule, a balancer's backend). The page's block
between ``<!-- <generated: resources> -->`` and ``<!-- </generated> -->`` holds it:

    python -m tools.reference          # rewrite the block
    python -m tools.reference --check  # exit 1 when it is stale

A test runs the check and counts the tables' rows against the declarations.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import itertools
import re
import sys
import textwrap
from pathlib import Path
from typing import Any

from altostratus.providers._inputs import REGION_DOC, Field, inputs_of
from altostratus.providers._resource import AltostratusResource
from tools.codegen import _nested_args, _resources

PAGE = Path(__file__).resolve().parents[1] / "docs" / "reference" / "resources.md"
_BLOCK = re.compile(r"(<!-- <generated: resources> -->\n).*?(<!-- </generated> -->\n)", re.DOTALL)
_WRAPPED = re.compile(r"pulumi\.(Input|Output)\[")


def plain_type(annotation: str) -> str:
    """``pulumi.Input[Sequence[pulumi.Input[str]]] | None`` as ``Sequence[str]``."""
    text = annotation.removesuffix(" | None")
    while found := _WRAPPED.search(text):
        start, depth = found.end(), 1
        for end in range(start, len(text)):
            depth += {"[": 1, "]": -1}.get(text[end], 0)
            if depth == 0:
                break
        text = text[: found.start()] + text[start:end] + text[end + 1 :]
    return text.replace("pulumi.", "")


def attribute_docs(cls: type[Any]) -> dict[str, str]:
    """The docstrings written under the class's annotated attributes, joined into one line."""
    source = textwrap.dedent(inspect.getsource(cls))
    (node,) = ast.parse(source).body
    assert isinstance(node, ast.ClassDef)
    docs: dict[str, str] = {}
    body = node.body
    for statement, following in itertools.pairwise(body):
        if (
            isinstance(statement, ast.AnnAssign)
            and isinstance(statement.target, ast.Name)
            and isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
            and isinstance(following.value.value, str)
        ):
            docs[statement.target.id] = " ".join(inspect.cleandoc(following.value.value).split())
    return docs


def _fallback(name: str) -> str:
    return REGION_DOC if name == "region" else ""


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _default(field: Field, provider: Any) -> str:
    if field.name == provider.naming:
        if provider.naming == "name":
            return "the resource name and a random suffix"
        return "the resource name"
    if field.required:
        return "required"
    if field.name == "region":
        if provider.reference:
            return f"that of the record `{provider.reference}` names, else `altostratus:region`"
        return "`altostratus:region`"
    if not field.keep_when_absent:
        return "none (left out: removed)"
    return "the service's"


def _change(field: Field) -> str:
    if field.replaces:
        return "replaces"
    if field.at_create:
        return "read at create only"
    return "updates in place"


def _signature(name: str, params: list[str]) -> str:
    lines = [f"{name}(", *(f"    {param}," for param in params), ")"]
    return "\n".join(lines)


def _args_params(args_class: type[Any]) -> list[str]:
    """The ``Args`` class's keywords, required ones first as Python declares them."""
    params = ["*"]
    for declared in dataclasses.fields(args_class):
        annotation = str(declared.type)
        if declared.default is dataclasses.MISSING:
            params.append(f"{declared.name}: {annotation.removesuffix(' | None')}")
        else:
            params.append(f"{declared.name}: {annotation} = None")
    return params


def resource_section(resource: type[AltostratusResource[Any]]) -> list[str]:
    args_class = resource._args_class
    provider = resource._provider_class
    fields = inputs_of(args_class)
    input_docs = attribute_docs(args_class)
    output_docs = attribute_docs(resource)
    outputs = {
        name: annotation
        for name, annotation in inspect.get_annotations(resource).items()
        if name in resource._output_names
    }
    secrets = set(resource._secret_outputs)
    doc = inspect.cleandoc(resource.__doc__ or "")
    # Every keyword may be left out here (the Args object may carry it instead), as in Pulumi's
    # generated SDKs; the Args signature shows which inputs are required.
    keywords = [
        f"{f.name}: {args_class.__annotations__[f.name].removesuffix(' | None')} | None"
        for f in fields
    ]
    lines = [
        f"## {resource.__name__}",
        "",
        doc,
        "",
        "```python",
        _signature(
            f"alto.{resource.__name__}",
            [
                "resource_name: str",
                f"args: {args_class.__name__} | None = None",
                "opts: pulumi.ResourceOptions | None = None",
                "*",
                *(f"{keyword} = None" for keyword in keywords),
            ],
        ),
        _signature(f"alto.{args_class.__name__}", _args_params(args_class)),
        "```",
        "",
        "Inputs, given as keywords or as the `Args` object; a required input left out fails the "
        "check naming it, whichever form is used.",
        "",
        f'<a id="{resource.__name__.lower()}-inputs"></a>',
        "",
        "| input | type | default | a change | secret | description |",
        "|---|---|---|---|---|---|",
    ]
    for field in fields:
        secret = "yes" if field.secret or field.name in secrets else "no"
        alias = f" (also `{field.alias}`)" if field.alias else ""
        type_ = plain_type(args_class.__annotations__[field.name])
        lines.append(
            f"| `{field.name}`{alias} | `{_cell(type_)}`"
            f" | {_cell(_default(field, provider))} | {_change(field)} | {secret}"
            f" | {_cell(input_docs.get(field.name) or _fallback(field.name))} |"
        )
    lines += [
        "",
        f'<a id="{resource.__name__.lower()}-outputs"></a>',
        "",
        "| output | type | secret | description |",
        "|---|---|---|---|",
    ]
    for name, annotation in outputs.items():
        secret = "yes" if name in secrets else "no"
        echoed = name in args_class.__annotations__
        said = output_docs.get(name) or (
            "The input's value, as the service keeps it." if echoed else ""
        )
        lines.append(
            f"| `{name}` | `{_cell(plain_type(str(annotation)))}` | {secret} | {_cell(said)} |"
        )
    return [*lines, ""]


def nested_section(args_class: type[Any]) -> list[str]:
    docs = attribute_docs(args_class)
    lines = [
        f"## {args_class.__name__}",
        "",
        inspect.cleandoc(args_class.__doc__ or ""),
        "",
        "```python",
        _signature(f"alto.{args_class.__name__}", _args_params(args_class)),
        "```",
        "",
        f"Also a `{args_class.__name__}Dict` (a `TypedDict` of the same keys).",
        "",
        "| field | type | required | description |",
        "|---|---|---|---|",
    ]
    for declared in dataclasses.fields(args_class):
        required = "yes" if declared.default is dataclasses.MISSING else "no"
        lines.append(
            f"| `{declared.name}` | `{_cell(plain_type(str(declared.type)))}` | {required}"
            f" | {_cell(docs.get(declared.name, ''))} |"
        )
    return [*lines, ""]


def generated() -> str:
    lines: list[str] = []
    for resource in _resources():
        lines += resource_section(resource)
    for args_class in _nested_args():
        if dataclasses.is_dataclass(args_class):
            lines += nested_section(args_class)
    return "\n".join(lines)


def rewritten(page: str) -> str:
    if not _BLOCK.search(page):
        raise SystemExit(f"{PAGE}: no <!-- <generated: resources> --> block")
    return _BLOCK.sub(lambda m: m[1] + generated() + m[2], page, count=1)


def main(argv: list[str]) -> int:
    page = PAGE.read_text(encoding="utf-8")
    new = rewritten(page)
    if "--check" in argv:
        if new != page:
            print(f"{PAGE.name} is stale: run python -m tools.reference", file=sys.stderr)
            return 1
        return 0
    PAGE.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
