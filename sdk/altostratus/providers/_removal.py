"""Deletes that wait out "in use" and asynchronous removal, so that ``pulumi destroy`` passes in
one run.

On the service a delete can be refused while something still holds the resource (409
``database_<kind>_inuse``: a network whose firewall or load balancer is itself being removed), and
a removal can finish after the DELETE is answered (a network ``Deleting``). A provider's delete
therefore:

1. sends the DELETE, and while the answer is ``InUseError`` sends it again at the poll delays of
   ``_wait`` (0.1, 0.2, 0.4 s, then every 0.5 s, then growing to 5 s); any other error is raised
   at once, and ``NotFoundError`` means done;
2. for the kinds whose removal may take time (``removal_takes_time``), reads the record until
   its GET answers 404: at once first, so a removal that is already over costs one read; so the
   dependencies deleted next never meet it.

Both share one deadline, ``altostratus:waitTimeoutSeconds``; when it passes, the error says what
still holds the resource (the API's reason) or the state it was last seen in.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from altostratus.client.errors import InUseError, NotFoundError
from altostratus.providers import _config
from altostratus.providers._wait import retry_while, wait_until

if TYPE_CHECKING:
    from altostratus.client import Client
    from altostratus.providers._records import RecordHooks

GONE = "gone"
"""The state of a record whose GET answers 404."""


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
