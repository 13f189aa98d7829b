"""Reading a service request's parts: its body (JSON or form-encoded, within the bounds of
``params``) into the parameters its operation accepts, the query fields it does not take, the
region (query and body must agree) and the bearer key. The answers are written by
``routes.answers``."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from werkzeug.wrappers import Request

from altostratus.emulator.errors import BadRequest, UnsupportedMediaType
from altostratus.emulator.reading.bodies import NO_BODY
from altostratus.emulator.reading.fields import Body
from altostratus.emulator.reading.params import Params, parse_json
from altostratus.emulator.vocabulary import DEFAULT_REGION, REGIONS

MUTATING = ("POST", "PUT", "PATCH", "DELETE")


def json_object(data: bytes, *, whole_state: bool = False) -> dict[str, Any]:
    """A JSON object body within the limits (see ``parse_json``); empty for no body, 400 for
    anything but an object."""
    if not data.strip():
        return {}
    body = parse_json(data, whole_state=whole_state)
    if not isinstance(body, dict):
        raise BadRequest("The body must be a JSON object", "parameter_body_invalid")
    return body


def read_params(request: Request, accepts: Body[Any] = NO_BODY) -> Params:
    """The body of a mutating call, JSON or form-encoded (415 for anything else), read as the
    operation ``accepts`` it (see ``bodies``)."""
    values: dict[str, Any] = {}
    form = False
    if request.method in MUTATING:
        data = request.get_data(cache=True)
        mimetype = request.mimetype
        if mimetype == "application/json":
            values = json_object(data)
        elif mimetype == "application/x-www-form-urlencoded":
            values, form = request.form.to_dict(), True
        elif mimetype or data:
            raise UnsupportedMediaType(
                "Send the body as application/json or application/x-www-form-urlencoded"
            )
    return accepts.params(values, form=form)


def ignored_query(request: Request, accepts: Collection[str]) -> list[str]:
    """The query fields with a value that the operation does not take, sorted (a body field
    sent in the query string is one)."""
    return sorted(name for name, value in request.args.items() if value and name not in accepts)


def refuse_unknown(request: Request, ignored: dict[str, list[str]]) -> None:
    """400 naming the first field the operation does not take (strict emulators only)."""
    for where in ("body", "query"):
        if ignored[where]:
            name = ignored[where][0]
            listed = ", ".join(ignored[where])
            raise BadRequest(
                f"{request.method} {request.path} takes no {where} field {name}"
                f" (unknown {where} fields: {listed}); the service would ignore it",
                f"parameter_{name.rsplit('.', 1)[-1]}_unknown",
            )


def resolve_region(request: Request, params: Params, regions: Collection[str] = REGIONS) -> str:
    """The region from the query and the body (they must agree); ``LON1`` when neither names one."""
    query = request.args.get("region") or None
    body = params.raw("region")
    if body is not None and not isinstance(body, str):
        raise BadRequest("The parameter region must be text", "parameter_region_invalid")
    body = body or None
    if query and body and query.upper() != body.upper():
        raise BadRequest(
            "The region in the query and the region in the body disagree",
            "parameter_region_invalid",
        )
    region = (query or body or DEFAULT_REGION).upper()
    if region not in regions:
        raise BadRequest(
            f"The region {region} is not available; use one of {', '.join(regions)}",
            "region_unavailable",
        )
    return region


def bearer_key(request: Request) -> str | None:
    scheme, _, key = request.headers.get("Authorization", "").strip().partition(" ")
    if scheme.lower() != "bearer" or not key.strip():
        return None
    return key.strip()
