"""The delivery worker: a queue ordered by due time on the emulated clock, and a few senders."""

from __future__ import annotations

import hashlib
import heapq
import hmac
import itertools
import json
import logging
import secrets
import threading
import uuid
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any, Protocol

from altostratus._version import package_version
from altostratus.emulator.clock import Clock
from altostratus.emulator.webhooks.events import EVENT_NAMES
from altostratus.emulator.webhooks.sending import DELIVERY_AGENT, Outcome, post
from altostratus.emulator.webhooks.targets import DeliveryTarget, WebhookDirectory

logger = logging.getLogger("altostratus.emulator.webhooks")

RETRY_DELAYS = (5 * 60.0, 30 * 60.0, 3600.0, 2 * 3600.0, 6 * 3600.0)
"""Emulated seconds from a failed attempt to the next; after the last retry fails, disable."""
ATTEMPTS = len(RETRY_DELAYS) + 1
KEPT_RECORDS = 10_000
"""Delivery records kept for ``GET /_emulator/deliveries``: the latest, so memory stays bounded."""


@dataclass(frozen=True)
class _Attempt:
    webhook_id: str
    event: str
    resource_id: str
    event_id: str
    body: bytes
    number: int
    generation: int


#: The records the dispatcher's saved form holds, by the name a state folder gives them.
SAVED_RECORDS: dict[str, type] = {"webhook_attempt": _Attempt}


class Ids(Protocol):
    """Generated values (the state's ``IdSource``: random, or a seeded sequence)."""

    def uuid(self) -> str: ...

    def choice(self, options: Sequence[str]) -> str: ...


class _RandomIds:
    def uuid(self) -> str:
        return str(uuid.uuid4())

    def choice(self, options: Sequence[str]) -> str:
        return secrets.choice(options)


class WebhookDispatcher:
    """Delivers events to webhooks, signed, with the spec's timeout, retries and disabling.

    An event's body is serialized once and sent unchanged on every attempt, under one
    ``X-Service-Event`` id per webhook. Each attempt re-reads the webhook, so a deleted or
    disabled one gets nothing more and a changed URL or secret applies at once. A failure (no
    answer within ``timeout_seconds`` emulated seconds, a non-2xx answer, no connection) is
    recorded on the webhook and retried per ``RETRY_DELAYS``; the sixth failure disables it.
    """

    def __init__(
        self,
        directory: WebhookDirectory,
        clock: Clock,
        *,
        timeout_seconds: float = 5.0,
        max_concurrent: int = 4,
        remote_deliveries: bool = False,
        ids: Ids | None = None,
    ) -> None:
        """``ids``: where delivery ids and a test's event and resource id come from (the state's
        ``IdSource``, seeded or random)."""
        self._ids: Ids = ids if ids is not None else _RandomIds()
        self._directory = directory
        self._clock = clock
        self._timeout = timeout_seconds
        self._max_concurrent = max_concurrent
        self._remote = remote_deliveries
        self._refused_ports: frozenset[int] = frozenset()
        #: Called after each attempt's outcome is recorded: the state folder's save.
        self.on_change: Callable[[], None] | None = None
        self._cond = threading.Condition()
        self._queue: list[tuple[float, int, _Attempt]] = []
        self._order = itertools.count()
        self._records: deque[dict[str, object]] = deque(maxlen=KEPT_RECORDS)
        self._in_flight = 0
        self._generation = 0
        self._kick = threading.Event()
        self._stopping = threading.Event()
        self._scheduler: threading.Thread | None = None
        self._pool: ThreadPoolExecutor | None = None

    def start(self) -> None:
        with self._cond:
            if self._scheduler is not None:
                return
            self._stopping.clear()
            self._pool = ThreadPoolExecutor(self._max_concurrent, "webhook-delivery")
            self._scheduler = threading.Thread(
                target=self._run, name="webhook-scheduler", daemon=True
            )
            self._scheduler.start()

    def stop(self) -> None:
        with self._cond:
            scheduler, pool = self._scheduler, self._pool
            self._scheduler = self._pool = None
            self._stopping.set()
            self._kick.set()
            self._cond.notify_all()
        self._clock.wake()
        if scheduler is not None:
            scheduler.join(timeout=5)
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def refuse_ports(self, ports: set[int]) -> None:
        """Never deliver to this machine on ``ports``: the emulator's own."""
        self._refused_ports = frozenset(ports)

    def emit(self, account_id: str, event: str, resource_id: str) -> None:
        body = json.dumps({"event": event, "resourceID": resource_id}).encode()
        for target in self._directory.delivery_targets(account_id, event):
            self._enqueue(target.webhook_id, event, resource_id, body)

    def send_test(self, target: DeliveryTarget) -> None:
        """The spec's test: the first subscribed event (a random one for ``*``), random id."""
        first = target.events[0] if target.events else "*"
        event = self._ids.choice(EVENT_NAMES) if first == "*" else first
        resource_id = self._ids.uuid()
        body = json.dumps({"event": event, "resourceID": resource_id}).encode()
        self._enqueue(target.webhook_id, event, resource_id, body)

    def deliveries(self) -> list[dict[str, object]]:
        with self._cond:
            return [dict(record) for record in self._records]

    def reset(self) -> None:
        with self._cond:
            self._queue.clear()
            self._records.clear()
            self._generation += 1
            self._cond.notify_all()

    def saved(self) -> dict[str, object]:
        """The attempts waiting (with their due times) and the delivery records, to keep."""
        with self._cond:
            queue = [(due, attempt) for due, _, attempt in sorted(self._queue)]
            return {"queue": queue, "records": [dict(r) for r in self._records]}

    def restore(self, saved: dict[str, Any]) -> None:
        """Take back what ``saved()`` returned (before the worker starts)."""
        with self._cond:
            self._records = deque((dict(r) for r in saved["records"]), maxlen=KEPT_RECORDS)
            for due, attempt in saved["queue"]:
                self._push(due, replace(attempt, generation=self._generation))

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """Block until no attempt is due now or in flight; False when ``timeout`` passes first."""
        with self._cond:
            return self._cond.wait_for(self._idle, timeout)

    def _idle(self) -> bool:
        return self._in_flight == 0 and (
            not self._queue or self._queue[0][0] > self._clock.monotonic()
        )

    def _enqueue(self, webhook_id: str, event: str, resource_id: str, body: bytes) -> None:
        with self._cond:
            attempt = _Attempt(
                webhook_id, event, resource_id, self._ids.uuid(), body, 1, self._generation
            )
            self._push(self._clock.monotonic(), attempt)

    def _push(self, due: float, attempt: _Attempt) -> None:
        heapq.heappush(self._queue, (due, next(self._order), attempt))
        self._kick.set()
        self._cond.notify_all()
        self._clock.wake()

    def _run(self) -> None:
        while not self._stopping.is_set():
            with self._cond:
                now = self._clock.monotonic()
                while self._queue and self._queue[0][0] <= now and self._pool is not None:
                    attempt = heapq.heappop(self._queue)[2]
                    self._in_flight += 1
                    self._pool.submit(self._attempt, attempt)
                next_due = self._queue[0][0] if self._queue else now + 3600.0
                self._kick.clear()
            self._clock.sleep_until(next_due, stop=self._kick)

    def _attempt(self, attempt: _Attempt) -> None:
        try:
            target = self._directory.delivery_target(attempt.webhook_id)
            if target is not None:
                self._send(attempt, target)
            if self.on_change is not None:
                self.on_change()
        except Exception:
            logger.exception("a webhook delivery attempt failed")
        finally:
            with self._cond:
                self._in_flight -= 1
                self._cond.notify_all()

    def _send(self, attempt: _Attempt, target: DeliveryTarget) -> None:
        sent_at = self._clock.now().isoformat()
        try:
            outcome = self._post(attempt, target)
        except Exception as error:  # whatever went wrong, the attempt is recorded and retried
            logger.exception("a webhook delivery attempt failed")
            outcome = Outcome(None, f"the delivery could not be sent ({type(error).__name__})")
        with self._cond:
            if attempt.generation != self._generation:
                return
            self._records.append(self._record(attempt, outcome, sent_at))
        if outcome.ok:
            return
        assert outcome.error is not None
        last = attempt.number >= ATTEMPTS
        self._directory.record_delivery_failure(attempt.webhook_id, outcome.error, disable=last)
        if not last:
            with self._cond:
                if attempt.generation == self._generation:
                    due = self._clock.monotonic() + RETRY_DELAYS[attempt.number - 1]
                    self._push(due, replace(attempt, number=attempt.number + 1))

    def _post(self, attempt: _Attempt, target: DeliveryTarget) -> Outcome:
        secret = target.secret.encode("utf-8", "surrogatepass")
        headers = {
            "Content-Type": "application/json",
            "User-Agent": f"{DELIVERY_AGENT}{package_version()}",
            "X-Service-Event": attempt.event_id,
            "X-Service-Signature": hmac.new(secret, attempt.body, hashlib.sha1).hexdigest(),
        }
        return post(
            target.url,
            attempt.body,
            headers,
            self._clock.real_seconds(self._timeout),
            self._timeout,
            remote=self._remote,
            refused_ports=self._refused_ports,
        )

    @staticmethod
    def _record(attempt: _Attempt, outcome: Outcome, sent_at: str) -> dict[str, object]:
        return {
            "webhook_id": attempt.webhook_id,
            "event": attempt.event,
            "resource_id": attempt.resource_id,
            "event_id": attempt.event_id,
            "attempt": attempt.number,
            "status_code": outcome.status_code,
            "error": outcome.error,
            "delivered_at": sent_at,
        }
