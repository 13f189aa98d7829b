"""Reading ``terraform show -json``: the state's resources, module by module.

The format is Terraform's JSON state representation (``format_version`` 1.x): ``values`` holds
a ``root_module`` whose ``resources`` each carry ``address``, ``mode`` (``managed`` or ``data``),
``type``, ``name``, ``index`` (of ``count`` or ``for_each``), ``values`` (sensitive ones in plain
text) and ``sensitive_values`` (the same shape, ``true`` where a value is sensitive), and whose
``child_modules`` nest the same way.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

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
    values = document.get("values") or {}
    source = Source(tool="terraform", title="the Terraform state")
    for entry in _resources(values.get("root_module") or {}):
        resource = _resource(entry)
        if entry.get("mode") == "data":
            source.lookups.append(resource)
        else:
            source.resources.append(resource)
    return source


def _resources(module: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for entry in module.get("resources") or []:
        if isinstance(entry, dict):
            yield entry
    for child in module.get("child_modules") or []:
        if isinstance(child, dict):
            yield from _resources(child)


def _resource(entry: dict[str, Any]) -> SourceResource:
    address = str(entry.get("address", ""))
    values = entry.get("values") or {}
    if not isinstance(values, dict):
        raise SourceError(f"{address}: its values are not an object")
    marked = hide_sensitive(values, entry.get("sensitive_values"))
    return SourceResource(
        address=address,
        label=address,
        type=str(entry.get("type", "")),
        name=_name(address, entry),
        id=str(values.get("id") or ""),
        values=marked,
        depends_on=tuple(str(d) for d in entry.get("depends_on") or ()),
    )


def _name(address: str, entry: dict[str, Any]) -> str:
    """``cache-this-0`` for ``module.cache.civo_network.this[0]``."""
    parts = []
    for module in _MODULE.finditer(address):
        parts.append(module[1])
        if module[3]:
            parts.append(module[3])
    parts.append(str(entry.get("name", "")))
    if entry.get("index") is not None:
        parts.append(str(entry["index"]))
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
