"""The service's answers on the wire: a JSON body (an ``Encoded`` one, written by its store,
sent as it is) and the error body of an ``EmulatorError``, the one place where the emulator's
errors become HTTP answers, for the service, its admin endpoints and its login alike."""

from __future__ import annotations

import json
from typing import Any

from werkzeug.wrappers import Response

from altostratus.emulator.errors import EmulatorError
from altostratus.emulator.state.base import Encoded


def json_response(body: Any, status: int = 200) -> Response:
    """``body`` as JSON; an ``Encoded`` body is sent as it is."""
    data = body if isinstance(body, Encoded) else json.dumps(body)
    return Response(data, status=status, mimetype="application/json")


def error_response(error: EmulatorError) -> Response:
    response = json_response(error.body(), error.status)
    response.headers.update(error.headers)
    return response
