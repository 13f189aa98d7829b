"""The JSON Schema pieces that document a request's fields (see ``fields``), and with which the
OpenAPI document (``openapi``) writes the answers' schemas too: the plain types, a closed object,
a reference, an enumeration, and the fields of a balancer's backend, which bodies and answers
share."""

from __future__ import annotations

from typing import Any

from altostratus.emulator.vocabulary import BACKEND_PROTOCOLS

Schema = dict[str, Any]

TEXT: Schema = {"type": "string"}
INT: Schema = {"type": "integer"}
BOOL: Schema = {"type": "boolean"}
TEXTS: Schema = {"type": "array", "items": TEXT}


def closed(properties: dict[str, Schema], optional: tuple[str, ...] = ()) -> Schema:
    """An object with exactly these properties, all required but ``optional``."""
    return {
        "type": "object",
        "properties": properties,
        "required": [name for name in properties if name not in optional],
        "additionalProperties": False,
    }


def ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def choice(*values: str) -> Schema:
    return {"type": "string", "enum": list(values)}


PORT: Schema = {"type": "integer", "minimum": 1, "maximum": 65535}
BACKEND_FIELDS: dict[str, Schema] = {
    "ip": TEXT,
    "protocol": choice(*BACKEND_PROTOCOLS),
    "source_port": PORT,
    "target_port": PORT,
    "health_check_port": PORT,
}
