"""The one module of the package that touches Werkzeug's private members: a routing rule's
URL builder (``Rule._compile_builder``), compiled here when first used instead of as the rule
joins its map.

Checked against Werkzeug 3.0 to 3.1 (``pyproject.toml`` bounds it below 4, and CI runs the
routing tests on the newest release past that bound). A test holds every other module of the
package to Werkzeug's public names.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from werkzeug.routing import Rule


class LazyRule(Rule):
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
