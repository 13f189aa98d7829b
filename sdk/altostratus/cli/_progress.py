"""What ``altostratus run`` prints while it runs a stack, in the shape of ``pulumi up``'s output.

A line per resource as its step starts and as it ends, with the step's elapsed time (``+
altostratus:Network app creating (0s)``, then ``created (0.21s)``), and one for each wait or
retry the provider reports meanwhile (``creating (1s) network 'app': retrying ...``); a
preview, where no step runs, prints what each resource's step would be. At the end of an
operation: the stack's outputs (secrets as ``[secret]`` unless they are to be shown), a count of
resources per operation, the duration.
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from altostratus.testing import OutputValue, Result, StepEvent

DYNAMIC_PREFIX = "pulumi-python:dynamic/"

#: op: (symbol, doing, done, preview), as the engine's display words them.
STEPS: dict[str, tuple[str, str, str, str]] = {
    "create": ("+", "creating", "created", "create"),
    "update": ("~", "updating", "updated", "update"),
    "replace": ("+-", "replacing", "replaced", "replace"),
    "create-replacement": ("++", "creating replacement", "created replacement", "create"),
    "delete-replaced": ("--", "deleting original", "deleted original", "delete original"),
    "delete": ("-", "deleting", "deleted", "delete"),
    "read": (">", "reading", "read", "read"),
    "refresh": ("~", "refreshing", "refreshed", "refresh"),
    "import": ("=", "importing", "imported", "import"),
    "check": (" ", "checking", "checked", "check"),
}
#: What each operation of a result counts as in the summary, done and previewed.
SUMMARY: dict[str, tuple[str, str, str]] = {
    "create": ("+", "created", "to create"),
    "update": ("~", "updated", "to update"),
    "replace": ("+-", "replaced", "to replace"),
    "delete": ("-", "deleted", "to delete"),
    "discard": ("-", "discarded", "to discard"),
    "read": (">", "read", "to read"),
    "same": (" ", "unchanged", "unchanged"),
}


FRONTS = ("dynamic", "plugin")
"""The front ends, as ``ResourceResult.front`` names them, in the order the summary lists them."""


def display_type(type_: str) -> str:
    """``altostratus:Network`` for a dynamic resource's ``pulumi-python:dynamic/...`` token."""
    return type_.removeprefix(DYNAMIC_PREFIX)


def seconds(elapsed: float) -> str:
    return f"{elapsed:.2f}s"


def _summary_order(item: tuple[str, int]) -> int:
    return list(SUMMARY).index(item[0]) if item[0] in SUMMARY else len(SUMMARY)


class Progress:
    """Prints step events as they arrive (from several threads at once) and each result."""

    def __init__(self, out: TextIO, *, show_secrets: bool = False) -> None:
        self.out = out
        self.show_secrets = show_secrets
        self._lock = threading.Lock()
        self._started = time.monotonic()
        self._open = False

    def say(self, text: str = "") -> None:
        with self._lock:
            print(text, file=self.out, flush=True)

    def begin(self, title: str) -> None:
        self._started = time.monotonic()
        self._open = True
        self.say(title)

    def event(self, event: StepEvent) -> None:
        """A step started, ended or failed: its line (checks show only when they fail).

        A step still in flight when its operation has ended (a check the failed program no
        longer waits for) is not shown."""
        if not self._open:
            return
        symbol, doing, done, _ = STEPS.get(event.op, (" ", event.op, event.op, event.op))
        subject = f" {symbol:<2} {display_type(event.type)} {event.name}"
        if event.status == "failed":
            self.say(f"{subject} {doing} failed ({seconds(event.elapsed)}): {event.error}")
        elif event.status == "progress":
            self.say(f"{subject} {doing} ({event.elapsed:.0f}s) {event.message}")
        elif event.op == "check" or event.preview:
            return
        elif event.status == "started":
            self.say(f"{subject} {doing} (0s)")
        else:
            self.say(f"{subject} {done} ({seconds(event.elapsed)})")

    def finish(self, result: Result, *, preview: bool = False) -> None:
        """The outputs (for ``up`` and ``preview``), the count of resources, the duration."""
        self._open = False
        lines = [""]
        if preview:
            lines[:0] = [
                f" {STEPS[res.op][0]:<2} {display_type(res.type)} {res.name} {STEPS[res.op][3]}"
                for res in result.resources.values()
                if res.op in STEPS
            ]
        if result.outputs:
            lines += ["Outputs:", *self.outputs(result.outputs, preview=preview), ""]
        counts = Counter(result.operations.values())
        if counts:
            lines.append("Resources:")
            for op, count in sorted(counts.items(), key=_summary_order):
                symbol, done, previewed = SUMMARY.get(op, (" ", op, op))
                lines.append(f"    {symbol:<2}{count} {previewed if preview else done}")
            lines.append("")
        fronts = Counter(res.front for res in result.resources.values() if res.front)
        if fronts:
            # Which front end ran the resources: ``altostratus``'s dynamic classes (shown as
            # ``altostratus:<Name>``) or the provider plugin (``altostratus:index:<Name>``).
            ran = ", ".join(f"{fronts[front]} {front}" for front in FRONTS if front in fronts)
            lines += [f"Front ends: {ran}", ""]
        lines.append(f"Duration: {seconds(time.monotonic() - self._started)}")
        self.say("\n".join(lines))

    def outputs(self, outputs: Mapping[str, OutputValue], *, preview: bool) -> list[str]:
        width = max(len(name) for name in outputs)
        return [
            f"    {name:<{width}}: {self.value(shown, output.secret, preview=preview)}"
            for name, output in sorted(outputs.items())
            for shown in [self._shown(output)]
        ]

    def _shown(self, output: OutputValue) -> Any:
        """The value, with the secrets inside it masked unless secrets are shown."""
        hidden = not (self.show_secrets or output.secret)
        return output.shown if hidden else output.value

    def value(self, value: Any, secret: bool, *, preview: bool) -> str:
        if preview and value is None:
            return "[unknown]"
        if secret and not self.show_secrets:
            return "[secret]"
        return json.dumps(value, default=str)
