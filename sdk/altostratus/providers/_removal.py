"""Deletes that wait out "in use" and asynchronous removal, so that ``pulumi destroy`` passes in
one run, and fail early when waiting cannot help.

On the service a delete can be refused while something still holds the resource (409
``database_<kind>_inuse``: a network whose load balancer is itself being removed), and a removal
can finish after the DELETE is answered (a network ``Deleting``). A provider's delete therefore:

1. sends the DELETE, and while the answer is ``InUseError`` sends it again at the poll delays of
   ``_wait`` (0.1, 0.2, 0.4 s, then every 0.5 s, then growing to 5 s); any other error is raised
   at once, and ``NotFoundError`` means done;
2. for the kinds whose removal may take time (``removal_takes_time``), reads the record until
   its GET answers 404: at once first, so a removal that is already over costs one read; so the
   dependencies deleted next never meet it.

Both share one deadline, ``altostratus:waitTimeoutSeconds``; when it passes, the error says what
still holds the resource (the API's reason) or the state it was last seen in.

Waiting only helps while what holds the resource is going away. The 409's reason names the
holders (``load balancer 'web' (<id>)``, see ``holders``); after ``GRACE_SECONDS`` of refusals
(time for a delete of the holder that is on its way, such as a parallel step of the same
``pulumi destroy``), each refusal reads the holders it names, in the resource's region: when
none is gone or shows a removal under way (its ``state`` or ``status`` ``deleting``, see
``RecordHooks._being_removed``), the delete fails at once, in one line naming them, instead of
waiting out the timeout. A firewall shows no such state, so a firewall that is still there after
the grace counts as staying. A refusal whose reason names no holder this module can read is
waited out as before.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from altostratus.client.errors import InUseError, NotFoundError
from altostratus.providers import _config
from altostratus.providers._records import hooks_of
from altostratus.providers._wait import retry_while, wait_until

if TYPE_CHECKING:
    from altostratus.client import Client
    from altostratus.providers._records import RecordHooks

GONE = "gone"
"""The state of a record whose GET answers 404."""

GRACE_SECONDS = 2.0
"""How long refusals are waited out before their holders are read (see the module)."""

_HOLDER = re.compile(r"\b(network|firewall|load balancer|object store) '([^']*)' \(([^()\s]+)\)")


def holders(reason: str) -> list[tuple[str, str, str]]:
    """The records a 409's reason names as holding the resource: ``(kind, name, id)``."""
    return [(m[1], m[2], m[3]) for m in _HOLDER.finditer(reason)]


def _going_away(api: Client, kind: str, id_: str, region: str) -> bool:
    """Whether the holder ``id_`` is gone or shows a removal under way."""
    hooks = hooks_of(kind)()
    try:
        record = hooks._read(api, id_, {"region": region})
    except NotFoundError:
        return True
    return hooks._being_removed(record.model_dump())


def _staying(api: Client, region: str | None) -> Callable[[Exception, float], str | None]:
    """The ``hopeless`` test of a delete's retries (see ``_wait.retry_while``)."""

    def hopeless(error: Exception, waited: float) -> str | None:
        if not isinstance(error, InUseError) or waited < GRACE_SECONDS:
            return None
        named = holders(error.reason)
        if not named or region is None:
            return None
        if any(_going_away(api, kind, id_, region) for kind, _, id_ in named):
            return None
        shown = ", ".join(f"{kind} {name!r} ({id_})" for kind, name, id_ in named)
        them = "it is" if len(named) == 1 else "they are"
        return (
            f"still in use by {shown}, and {them} not being deleted: delete or detach "
            f"{'it' if len(named) == 1 else 'them'} first ({error})"
        )

    return hopeless


def remove_until_gone(
    hooks: RecordHooks[Any], api: Client, id_: str, props: dict[str, Any]
) -> None:
    """Delete the record ``id_`` and return once it is gone (see the module)."""
    timeout = _config.wait_timeout()
    deadline = time.monotonic() + timeout
    try:
        retry_while(
            lambda: hooks._remove(api, id_, props),
            lambda error: isinstance(error, InUseError),
            why="still in use",
            timeout=timeout,
            hopeless=_staying(api, hooks._region(props) if hooks.regional else None),
        )
    except NotFoundError:
        return
    if not hooks.removal_takes_time:
        return

    def state() -> str:
        try:
            record = hooks._read(api, id_, props)
        except NotFoundError:
            return GONE
        return hooks._status(record) or "present"

    wait_until(
        state,
        str,
        ready=lambda seen: seen == GONE,
        what=f"{hooks.kind} {id_}",
        timeout=max(deadline - time.monotonic(), 0.0),
        at_once=True,
        goal=GONE,
    )
