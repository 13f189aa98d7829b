"""Matching a request to an endpoint, for the service and the admin endpoints alike.

Paths are written as in OpenAPI (``/networks/{id}``). A path that matches with another method is a
405 listing the allowed methods; no match at all is a 404. Both are ``EmulatorError``s, so each
caller turns them into its usual JSON error body.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Generic, TypeVar

from werkzeug.exceptions import HTTPException
from werkzeug.exceptions import MethodNotAllowed as RoutingMethodNotAllowed
from werkzeug.routing import Map
from werkzeug.wrappers import Request

from altostratus.emulator.errors import MethodNotAllowed, NotFound
from altostratus.emulator.reading.werkzeug_internals import LazyRule

E = TypeVar("E")


def werkzeug_path(path: str) -> str:
    """``/networks/{id}`` as werkzeug writes it: ``/networks/<id>``."""
    return re.sub(r"{(\w+)}", r"<\1>", path)


class Router(Generic[E]):
    """Endpoints by method and path; ``what`` names them in a 404's reason."""

    def __init__(self, rules: Iterable[tuple[str, str, E]], what: str = "endpoint") -> None:
        self.what = what
        self.url_map = Map(
            [
                LazyRule(werkzeug_path(path), endpoint=endpoint, methods=[method])
                for method, path, endpoint in rules
            ],
            strict_slashes=False,
        )

    def match(self, request: Request) -> tuple[E, list[str]]:
        """The endpoint and the path's values in their order."""
        adapter = self.url_map.bind_to_environ(request.environ)
        try:
            endpoint, args = adapter.match()
        except RoutingMethodNotAllowed as error:
            allowed = sorted(error.valid_methods or [])
            reason = f"{request.method} is not allowed on {request.path}"
            raise MethodNotAllowed(reason, allowed) from None
        except HTTPException:
            raise NotFound(f"No {self.what} at {request.path}", "not_found") from None
        return endpoint, list(args.values())
