"""Reading ``pulumi stack export``: a stack of the bridged provider's resources.

The export is a checkpoint (``version`` 3): ``deployment.resources`` lists each resource with its
``urn`` (``urn:pulumi:<stack>::<project>::<type>::<name>``), ``type``, ``custom``, ``id``,
``inputs``, ``outputs``, ``provider`` (``<provider urn>::<provider id>``), ``dependencies``, and
``external`` for a resource read with ``get``. Secrets are envelopes keyed by Pulumi's secret
signature, holding ``ciphertext`` (or ``plaintext`` with ``--show-secrets``).

The bridged provider's types are ``civo:index/<camelCase>:<Name>`` and its properties the
Terraform provider's attributes in camelCase, a list's name pluralised (``ingressRules`` for
``ingress_rule``, ``cidrs`` for ``cidr``); both are read back under the Terraform names.
"""

from __future__ import annotations

import re
from typing import Any

from altostratus._pulumi_format import SECRET_SIGNATURE
from altostratus.migrate._checks import check_text, expect, optional, texts
from altostratus.migrate._source import SECRET, Source, SourceError, SourceResource

_BRIDGED_TYPE = re.compile(r"^civo:index/(?P<kind>[A-Za-z0-9]+):[A-Za-z0-9]+$")
_PLURALS = {
    "ingress_rules": "ingress_rule",
    "egress_rules": "egress_rule",
    "cidrs": "cidr",
    "nameservers_v4s": "nameservers_v4",
}
"""The bridge's plural names of Terraform list attributes."""


def read(document: dict[str, Any]) -> Source:
    deployment = document.get("deployment")
    entries = deployment.get("resources") if isinstance(deployment, dict) else None
    if not isinstance(entries, list):
        raise SourceError("the Pulumi export has no deployment.resources list")
    for number, entry in enumerate(entries):
        field = f"deployment.resources[{number}]"
        expect(entry, dict, "the Pulumi export", field)
        urn = expect(entry.get("urn"), str, "the Pulumi export", f"{field}.urn")
        check_text(urn, urn, "urn")
        check_text(expect(entry.get("type", ""), str, urn, "type"), urn, "type")
        check_text(optional(entry.get("id"), str, urn, "id") or "", urn, "id")
        optional(entry.get("provider"), str, urn, "provider")
        for part in ("inputs", "outputs"):
            optional(entry.get(part), dict, urn, part)
    source = Source(tool="pulumi", title=_title(entries))
    regions = {
        f"{entry.get('urn')}::{entry.get('id')}": (entry.get("inputs") or {}).get("region")
        for entry in entries
        if str(entry.get("type", "")).startswith("pulumi:providers:")
    }
    for entry in entries:
        kind = str(entry.get("type", ""))
        if not entry.get("custom") or kind.startswith("pulumi:") or entry.get("delete"):
            continue  # the stack, components, providers, and what awaits deletion
        resource = _resource(entry, regions.get(str(entry.get("provider"))))
        (source.lookups if entry.get("external") else source.resources).append(resource)
    return source


def _title(entries: list[dict[str, Any]]) -> str:
    for entry in entries:
        parts = str(entry.get("urn", "")).split("::")
        if len(parts) >= 4 and parts[0].startswith("urn:pulumi:"):
            return f"the Pulumi stack {parts[1]}/{parts[0].removeprefix('urn:pulumi:')}"
    return "the Pulumi stack"


def _resource(entry: dict[str, Any], provider_region: Any) -> SourceResource:
    urn = str(entry.get("urn", ""))
    kind = str(entry.get("type", ""))
    bridged = _BRIDGED_TYPE.match(kind)
    values = {**(entry.get("inputs") or {}), **(entry.get("outputs") or {})}
    terraform_values = terraform_names(values) if bridged else _revealed(values)
    if bridged and not terraform_values.get("region") and isinstance(provider_region, str):
        terraform_values["region"] = provider_region
    name = urn.split("::", 3)[-1] if urn.count("::") >= 3 else urn
    return SourceResource(
        address=urn,
        label=f"{kind} {name}",
        type=f"civo_{snake(bridged['kind'])}" if bridged else kind,
        name=name,
        id=str(entry.get("id") or ""),
        values=terraform_values,
        depends_on=tuple(texts(entry.get("dependencies"), urn, "dependencies")),
    )


def snake(name: str) -> str:
    """``cidr_v4`` for ``cidrV4``, ``object_store_credential`` for ``objectStoreCredential``."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()


def terraform_names(values: Any) -> Any:
    """The bridged provider's properties under the Terraform provider's names, secrets hidden;
    Pulumi's own (``__defaults``, ``__meta``) left out."""
    if _is_envelope(values):
        return SECRET
    if isinstance(values, dict):
        named = {}
        for key, value in values.items():
            if not key.startswith("__"):
                name = snake(key)
                named[_PLURALS.get(name, name)] = terraform_names(value)
        return named
    if isinstance(values, list):
        return [terraform_names(value) for value in values]
    return values


def _revealed(values: Any) -> Any:
    """Another provider's properties as they are, secrets hidden."""
    if _is_envelope(values):
        return SECRET
    if isinstance(values, dict):
        return {key: _revealed(value) for key, value in values.items()}
    if isinstance(values, list):
        return [_revealed(value) for value in values]
    return values


def _is_envelope(value: Any) -> bool:
    return isinstance(value, dict) and SECRET_SIGNATURE in value
