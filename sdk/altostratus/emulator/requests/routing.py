"""Matching a request to an endpoint, for the service and the admin endpoints alike.

Paths are written as in OpenAPI (``/networks/{id}``). A path that matches with another method is a
405 listing the allowed methods; no match at all is a 404. Both are ``EmulatorError``s, so each
caller turns them into its usual JSON error body.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any, Generic, TypeVar

from werkzeug.exceptions import HTTPException
from werkzeug.exceptions import MethodNotAllowed as RoutingMethodNotAllowed
from werkzeug.routing import Map, Rule
from werkzeug.wrappers import Request

from altostratus.emulator.errors import MethodNotAllowed, NotFound

E = TypeVar("E")


def werkzeug_path(path: str) -> str:
    """``/networks/{id}`` as werkzeug writes it: ``/networks/<id>``."""
    return re.sub(r"{(\w+)}", r"<\1>", path)


class _Rule(Rule):
    """A rule whose URL builders are compiled when first used. Werkzeug compiles two for each
    rule (with ``ast`` and ``compile``) as the rule joins its map, about 30 ms for the
    emulator's rules; the emulator matches URLs and never builds one."""

    def _compile_builder(self, append_unknown: bool = True) -> Callable[..., tuple[str, str]]:
        compiled: list[Callable[..., tuple[str, str]]] = []

        def build(rule: Rule, *args: Any, **kwargs: Any) -> tuple[str, str]:
            if not compiled:
                compiled.append(Rule._compile_builder(rule, append_unknown))
            return compiled[0](rule, *args, **kwargs)

        return build


class Router(Generic[E]):
    """Endpoints by method and path; ``what`` names them in a 404's reason."""

    def __init__(self, rules: Iterable[tuple[str, str, E]], what: str = "endpoint") -> None:
        self.what = what
        self.url_map = Map(
            [
                _Rule(werkzeug_path(path), endpoint=endpoint, methods=[method])
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
