"""Reading ``terraform show -json``: the state's resources, module by module.

The format is Terraform's JSON state representation (``format_version`` 1.x): ``values`` holds
a ``root_module`` whose ``resources`` each carry ``address``, ``mode`` (``managed`` or ``data``),
``type``, ``name``, ``index`` (of ``count`` or ``for_each``), ``values`` (sensitive ones in plain
text) and ``sensitive_values`` (the same shape, ``true`` where a value is sensitive), and whose
``child_modules`` nest the same way. A part of another shape is refused (``_checks``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from altostratus.migrate._checks import check_text, expect, optional, texts
from altostratus.migrate._source import SECRET, Source, SourceError, SourceResource

_MODULE = re.compile(r'module\.([^.\[]+)(?:\[("?)([^\]]*?)\2\])?\.')


def read(document: dict[str, Any]) -> Source:
    if "resource_changes" in document or "planned_values" in document:
        raise SourceError(
            "the source is a Terraform plan: give the state, `terraform show -json` "
            "with no plan file"
        )
    version = str(document.get("format_version", ""))
    if not version.startswith("1."):
        raise SourceError(f"Terraform's JSON format {version!r} is not known: 1.x is")
    values = optional(document.get("values"), dict, "the state", "values") or {}
    root = optional(values.get("root_module"), dict, "the state", "values.root_module") or {}
    source = Source(tool="terraform", title="the Terraform state")
    for entry in _resources(root, "values.root_module"):
        resource = _resource(entry)
        if entry.get("mode") == "data":
            source.lookups.append(resource)
        else:
            source.resources.append(resource)
    return source


def _resources(module: dict[str, Any], where: str) -> Iterator[dict[str, Any]]:
    entries = optional(module.get("resources"), list, "the state", f"{where}.resources") or []
    for number, entry in enumerate(entries):
        yield expect(entry, dict, "the state", f"{where}.resources[{number}]")
    children = optional(module.get("child_modules"), list, "the state", f"{where}.child_modules")
    for number, child in enumerate(children or []):
        field = f"{where}.child_modules[{number}]"
        yield from _resources(expect(child, dict, "the state", field), field)


def _resource(entry: dict[str, Any]) -> SourceResource:
    address = expect(entry.get("address"), str, "a resource of the state", "address")
    check_text(address, address, "address")
    kind = check_text(expect(entry.get("type"), str, address, "type"), address, "type")
    values = optional(entry.get("values"), dict, address, "values") or {}
    marked = hide_sensitive(values, entry.get("sensitive_values"))
    if marked is SECRET:  # ``sensitive_values: true``: every value is sensitive
        marked = {key: SECRET for key in values}
    id_ = optional(marked.get("id"), str, address, "id") if marked.get("id") is not SECRET else ""
    return SourceResource(
        address=address,
        label=address,
        type=kind,
        name=check_text(_name(address, entry), address, "name"),
        id=check_text(id_ or "", address, "id"),
        values=marked,
        depends_on=tuple(texts(entry.get("depends_on"), address, "depends_on")),
        secret_id=marked.get("id") is SECRET,
    )


def _name(address: str, entry: dict[str, Any]) -> str:
    """``cache-this-0`` for ``module.cache.civo_network.this[0]``."""
    parts = []
    for module in _MODULE.finditer(address):
        parts.append(module[1])
        if module[3]:
            parts.append(module[3])
    parts.append(expect(entry.get("name", ""), str, address, "name"))
    index = entry.get("index")
    if index is not None:
        if isinstance(index, bool) or not isinstance(index, (int, str)):
            raise SourceError(f"{address}: `index` is neither a number nor text")
        parts.append(str(index))
    return "-".join(parts)


def hide_sensitive(values: Any, marks: Any) -> Any:
    """``values`` with every value that ``marks`` (``sensitive_values``) flags made ``SECRET``."""
    if marks is True:
        return SECRET
    if isinstance(values, dict):
        given = marks if isinstance(marks, dict) else {}
        return {key: hide_sensitive(value, given.get(key)) for key, value in values.items()}
    if isinstance(values, list):
        given_list = marks if isinstance(marks, list) else []
        return [
            hide_sensitive(value, given_list[i] if i < len(given_list) else None)
            for i, value in enumerate(values)
        ]
    return values
