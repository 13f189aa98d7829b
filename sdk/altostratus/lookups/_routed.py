"""A lookup asked through a provider: ``opts=pulumi.InvokeOptions(provider=...)``."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar, cast

from altostratus.lookups._find import options_given

F = TypeVar("F", bound=Callable[..., Any])


def routed(lookup: F) -> F:
    """A lookup that takes ``opts``: given an ``altostratus.Provider``
    (``pulumi.InvokeOptions(provider=...)``), it is asked through that provider, in its account,
    service and region (the provider plugin's Invoke, as ``altostratus.plugin``'s lookups are);
    without one, it runs in the program with the stack's configuration."""

    @functools.wraps(lookup)
    def lookup_anywhere(*args: Any, **kwargs: Any) -> Any:
        opts = options_given(lookup, kwargs.get("opts"))
        if opts is None or opts.provider is None:
            return lookup(*args, **kwargs)
        from altostratus.plugin.front import through_invoke

        return through_invoke(lookup)(*args, **kwargs)

    return cast(F, lookup_anywhere)
