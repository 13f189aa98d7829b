"""How many calls the provider process serves at once (``altostratus:providerThreads``).

Pulumi serves every Python dynamic provider from ``python -m pulumi.dynamic``, whose gRPC server
runs its calls on ``concurrent.futures.ThreadPoolExecutor(max_workers=4)`` (``main()`` in
``pulumi/dynamic/__main__.py``; no setting changes it). A call holds its worker until it
answers, and a create holds it through its whole readiness wait: four waiting creates stop
every other call of the stack, checks included, whatever the engine's own parallelism.

``serve_at_once(n)`` runs inside the first call of the process (the SDK configures each provider
there), on a worker of that executor. It finds the executor whose worker runs the current call
and sets its bound to ``n``: a ``ThreadPoolExecutor`` starts a thread on ``submit`` while it has
fewer than ``_max_workers``, so later calls get threads of their own; calls already queued get
theirs at once (see ``_start_queued``). Threads start only when calls wait for one.

It acts only when the process runs ``pulumi.dynamic`` as its main module, and only when the
executor is there and shaped as CPython's (Python 3.10 to 3.13: ``_max_workers``, ``_threads``,
``_work_queue``, ``_idle_semaphore``, ``_shutdown_lock``, ``_adjust_thread_count``). Otherwise
it changes nothing, the process keeps the SDK's bound, and it says so in one line on the
provider's log (its standard error), once per process; every operation works either way. The
SDK change that makes this unnecessary: a ``max_workers`` for the server that a provider or the
environment can set.

This is the one module of the package that touches ``concurrent.futures``' private members (those
above), checked against CPython 3.10 to 3.13; a test holds every other module of the package to
the standard library's public names.
"""

from __future__ import annotations

import gc
import logging
import sys
import threading
from concurrent.futures.thread import ThreadPoolExecutor

PROVIDER_MODULE = "pulumi.dynamic.__main__"
_log = logging.getLogger("altostratus.providers")
_lock = threading.Lock()
_tried: int | None = None
_reported = False
_plugin = False


def serving_plugin() -> None:
    """Mark this process as the provider plugin's (``altostratus.plugin.server``): a provider
    process too, serving one provider instance."""
    global _plugin
    _plugin = True


def in_plugin() -> bool:
    """Whether this process is the provider plugin's."""
    return _plugin


def in_provider_process() -> bool:
    """Whether this process is the SDK's dynamic provider process (``python -m pulumi.dynamic``)
    or the provider plugin's."""
    if _plugin:
        return True
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    return getattr(spec, "name", None) == PROVIDER_MODULE


def serve_at_once(threads: int) -> None:
    """Let the provider process serve up to ``threads`` calls at once (see the module)."""
    global _tried
    if not in_provider_process():
        return
    with _lock:
        if _tried == threads:
            return
        _tried = threads
        executor, problem = _running_executor()
        if executor is None:
            _report(threads, problem)
            return
        before = executor._max_workers
        try:
            executor._max_workers = threads
        except (AttributeError, TypeError) as error:
            _report(threads, f"its bound cannot be set ({error})")
            return
        if executor._max_workers != threads:
            _report(threads, "its bound did not take the new value")
            return
        try:
            _start_queued(executor, threads)
        except RuntimeError as error:  # the system refused a thread: keep the SDK's bound
            executor._max_workers = before
            _report(threads, f"a thread could not start ({error})")
            return
    _log.debug("the provider process serves up to %d calls at once", threads)


def _running_executor() -> tuple[ThreadPoolExecutor | None, str]:
    """The thread pool whose worker runs this call, or None and why it is not usable."""
    current = threading.current_thread()
    found = None
    for candidate in gc.get_objects():
        if issubclass(type(candidate), ThreadPoolExecutor):
            workers = getattr(candidate, "_threads", None)
            if isinstance(workers, set) and current in workers:
                found = candidate
                break
    if found is None:
        return None, "no ThreadPoolExecutor runs the calls"
    bound = getattr(found, "_max_workers", None)
    if not isinstance(bound, int) or isinstance(bound, bool):
        return None, "its ThreadPoolExecutor has no _max_workers"
    for name, member in _MEMBERS.items():
        if not hasattr(getattr(found, name, None), member):
            return None, f"its ThreadPoolExecutor has no {name}.{member}"
    return found, ""


_MEMBERS = {
    "_work_queue": "qsize",
    "_idle_semaphore": "acquire",
    "_shutdown_lock": "__enter__",
    "_adjust_thread_count": "__call__",
}


def _start_queued(executor: ThreadPoolExecutor, threads: int) -> None:
    """Start a thread for each call queued while the bound was the SDK's.

    A worker marks itself idle (``_idle_semaphore``) after each call, even when it goes on at
    once to a queued one: the calls queued at the old bound left idle marks for busy threads,
    and a later call taking such a mark would start no thread and wait behind the busy ones.
    So the marks are dropped first (a thread truly idle now costs at most one thread more later),
    then one thread is started per queued call, as ``submit`` does.
    """
    with executor._shutdown_lock:
        if getattr(executor, "_shutdown", False):
            return
        while executor._idle_semaphore.acquire(timeout=0):
            pass
        waiting = executor._work_queue.qsize()
        for _ in range(max(0, min(waiting, threads - len(executor._threads)))):
            executor._adjust_thread_count()


def _report(threads: int, problem: str) -> None:
    global _reported
    if _reported:
        return
    _reported = True
    _log.warning(
        "altostratus: altostratus:providerThreads=%d is not applied, the provider process keeps "
        "the Pulumi SDK's bound of calls at once: %s",
        threads,
        problem,
    )
