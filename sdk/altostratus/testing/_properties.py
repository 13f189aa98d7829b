"""Property values as the engine holds them: secrets marked, unknowns kept.

Values use the Python SDK's wire conventions: a secret is the wrapper
``{"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", "value": ...}``
(``pulumi.runtime.rpc.wrap_rpc_secret``) and an unknown is the sentinel string
``pulumi.runtime.rpc.UNKNOWN`` (``pulumi.output.Unknown`` once decoded). The engine keeps the
secret bit on every value it stores; a dynamic provider does not accept secrets, so the engine
strips them before each call (``pkg/resource/plugin/provider_plugin.go``: ``MarshalProperties`` with
``KeepSecrets: protocol.acceptSecrets``, false for ``python -m pulumi.dynamic``) and marks them
again on what comes back (``annotateSecrets``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping
from typing import Any

from google.protobuf import struct_pb2
from pulumi.output import Unknown
from pulumi.runtime import rpc

Properties = dict[str, Any]

UNKNOWN: str = rpc.UNKNOWN
SIGNATURE_KEY = "4dabf18193072939515e22adb298388d"
"""The key of the wire's special objects (``rpc._special_sig_key``)."""
SECRET_SIGNATURE = "1b47061264138c4ac30d75fd1eb44270"
"""Its value in a secret (``rpc._special_secret_sig``)."""


def secret(value: Any) -> Any:
    """``value`` marked secret (unchanged when it already is)."""
    return rpc.wrap_rpc_secret(value)


def is_secret(value: Any) -> bool:
    return bool(rpc.is_rpc_secret(value))


def reveal(value: Any) -> Any:
    """``value`` with every secret mark removed, at any depth: what a dynamic provider sees."""
    value = rpc.unwrap_rpc_secret(value)
    if isinstance(value, dict):
        return {key: reveal(item) for key, item in value.items()}
    if isinstance(value, list):
        return [reveal(item) for item in value]
    return value


def contains_secrets(value: Any) -> bool:
    if is_secret(value):
        return True
    if isinstance(value, dict):
        return any(contains_secrets(item) for item in value.values())
    if isinstance(value, list):
        return any(contains_secrets(item) for item in value)
    return False


def is_unknown(value: Any) -> bool:
    """Whether ``value`` is not known yet: the wire's sentinel, or ``Unknown`` once decoded."""
    return isinstance(value, Unknown) or (isinstance(value, str) and value == UNKNOWN)


def contains_unknowns(value: Any) -> bool:
    value = rpc.unwrap_rpc_secret(value)
    if isinstance(value, dict):
        return any(contains_unknowns(item) for item in value.values())
    if isinstance(value, list):
        return any(contains_unknowns(item) for item in value)
    return is_unknown(value)


def annotate_secrets(outs: Properties, ins: Mapping[str, Any]) -> Properties:
    """Mark secret every value of ``outs`` whose key held a secret in ``ins``.

    Follows ``annotateSecrets`` in ``pkg/resource/plugin/provider_plugin.go``: objects are
    followed key by key, any other value is marked whole.
    """
    result = dict(outs)
    for key, in_value in ins.items():
        if key not in result:
            continue
        out_value = result[key]
        if isinstance(out_value, dict) and not is_secret(out_value):
            plain_in = rpc.unwrap_rpc_secret(in_value)
            if isinstance(plain_in, dict):
                annotated = annotate_secrets(out_value, plain_in)
                result[key] = secret(annotated) if is_secret(in_value) else annotated
                continue
        if not is_secret(out_value) and contains_secrets(in_value):
            result[key] = secret(out_value)
    return result


def mark_secret_outputs(
    outputs: Properties, inputs: Mapping[str, Any], additional: Iterable[str]
) -> Properties:
    """Outputs as the step executor stores them.

    Follows ``stepExecutor.continueExecuteStep`` (``pkg/resource/deploy/step_executor.go``):
    every output named in ``additional_secret_outputs`` is marked secret, and so is every output
    whose input of the same name is a secret.
    """
    result = dict(outputs)
    for key in additional:
        if key != "id" and key in result and not is_secret(result[key]):
            result[key] = secret(result[key])
    for key, value in result.items():
        if not is_secret(value) and is_secret(inputs.get(key)):
            result[key] = secret(value)
    return result


def to_struct(props: Mapping[str, Any]) -> struct_pb2.Struct:
    """Properties on the wire, as the Python SDK serializes them."""
    loop = asyncio.new_event_loop()
    try:
        struct: struct_pb2.Struct = loop.run_until_complete(
            rpc.serialize_properties(dict(props), {})
        )
    finally:
        loop.close()
    return struct


def from_struct(struct: struct_pb2.Struct, *, keep_nulls: bool = False) -> Properties:
    """Properties off the wire, unknowns (preview) kept unknown and secrets kept marked.

    As ``rpc.deserialize_properties``, but a null inside an object or a list is kept, as the
    engine keeps it in the state (only a property that is null as a whole is left out, unless
    ``keep_nulls``: a provider's answer, whose nulls the engine keeps; the dynamic provider
    sends none, the plugin may)."""
    found = {key: _from_wire(value) for key, value in struct.items()}
    return {key: value for key, value in found.items() if keep_nulls or value is not None}


def _from_wire(value: Any) -> Any:
    if isinstance(value, struct_pb2.ListValue):
        items = [_from_wire(item) for item in value]
        if any(is_secret(item) for item in items):
            # The SDK marks the whole list, as ``rpc.deserialize_property`` does.
            return secret([rpc.unwrap_rpc_secret(item) for item in items])
        return items
    if not isinstance(value, struct_pb2.Struct):
        return rpc.deserialize_property(value, keep_unknowns=True)
    if SIGNATURE_KEY not in value:
        props = {key: _from_wire(item) for key, item in value.items()}
        if any(is_secret(item) for item in props.values()):
            return secret({key: rpc.unwrap_rpc_secret(item) for key, item in props.items()})
        return props
    if value[SIGNATURE_KEY] == SECRET_SIGNATURE:
        return secret(_from_wire(value["value"]) if "value" in value else None)
    return rpc.deserialize_property(value, keep_unknowns=True)  # an asset, archive, resource...


def plain_secrets(props: Any, values: Iterable[str], path: str = "") -> list[str]:
    """The paths in ``props`` where one of ``values`` sits outside a secret mark.

    ``values`` are the secrets a test knows (API keys, secret keys, signing secrets); an empty
    answer means the state can be written without disclosing any of them.
    """
    known = {value for value in values if value}
    if is_secret(props):
        return []
    if isinstance(props, dict):
        found: list[str] = []
        for key, item in props.items():
            found += plain_secrets(item, known, f"{path}.{key}" if path else str(key))
        return found
    if isinstance(props, list):
        return [
            hit
            for index, item in enumerate(props)
            for hit in plain_secrets(item, known, f"{path}[{index}]")
        ]
    if isinstance(props, str) and any(value in props for value in known):
        return [path or "<value>"]
    return []
