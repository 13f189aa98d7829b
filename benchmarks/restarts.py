"""Section 14: a large ``--state-dir``: how long the emulator takes to stop, to start again after
a clean stop, and to start again after a ``kill -9`` with changes in the database's write-ahead
log; beside the floor of any start, a process that imports the emulator and reads the same
records back from ``state.db`` (the interpreter, the imports, one query and a parse of each
record), timed in turn with each start.

The folder is filled in process (networks put straight into the state: the API's create would
take minutes), stopped cleanly, then served by ``python -m altostratus.emulator`` processes;
each start is timed from the process's launch to its printed addresses.
"""

from __future__ import annotations

import http.client
import json
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from altostratus.emulator import Emulator
from benchmarks.measure import median
from benchmarks.report import INFO, Section, Table, verdict

TITLE = "14. Restarting a large state folder"
TARGET = 2.0
CHANGES = 200
READ_STATE = (
    "import sys, json, sqlite3, altostratus.emulator; "
    "[json.loads(body) for (body,) in sqlite3.connect(sys.argv[1]).execute("
    "'SELECT body FROM records')]"
)


def _fill(folder: Path, size: int) -> None:
    emulator = Emulator(state_dir=folder)
    state = emulator.state
    account = state.default_account.id
    with state.lock:
        state.default_account.limits["network_count"] = size + 10 * CHANGES
        networks = state.networks
        for number in range(size - len(networks.records)):
            networks._add(account, "LON1", f"n-{number}", None)
    emulator.stop()


class _Served:
    """An emulator process on ``folder``; ``started`` is how long it took to print its
    addresses."""

    def __init__(self, folder: Path) -> None:
        began = time.perf_counter()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "altostratus.emulator", "--port=0", "--s3-port=0",
             f"--state-dir={folder}", "--quiet"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        )  # fmt: skip
        assert self.process.stdout is not None
        shown: dict[str, str] = {}
        while len(shown) < 3:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("the emulator stopped before it was ready")
            name, _, value = line.partition(":")
            shown[name.strip()] = value.strip()
        self.started = time.perf_counter() - began
        self.port = int(shown["API"].rsplit(":", 1)[1])
        self.key = shown["API key"]

    def create(self, count: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", self.port)
        headers = {"Authorization": f"Bearer {self.key}", "Content-Type": "application/json"}
        for number in range(count):
            body = json.dumps({"label": f"changed-{number}"})
            connection.request("POST", "/v2/networks", body=body, headers=headers)
            answer = connection.getresponse()
            answer.read()
            assert answer.status < 300, answer.status
        connection.close()

    def stop(self) -> float:
        """SIGTERM, as a service manager stops it (a SIGINT may be ignored: a process started
        with SIGINT ignored, as this one may be after other sections, passes that on)."""
        began = time.perf_counter()
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=120)
        return time.perf_counter() - began

    def kill(self) -> None:
        self.process.kill()
        self.process.wait(timeout=30)


def _read_floor(state_file: Path) -> float:
    began = time.perf_counter()
    subprocess.run([sys.executable, "-c", READ_STATE, str(state_file)], check=True)
    return time.perf_counter() - began


def run(quick: bool) -> Section:
    sizes, tries = ([1000], 1) if quick else ([10_000, 50_000], 3)
    section = Section("restarts", TITLE)
    table = Table(
        ["records", "read state.db back (floor)", "stop", "start after a stop",
         f"start after kill -9 ({CHANGES} changes in the log)", "kill -9 / floor",
         "target", "verdict"],
        caption="Median seconds over the tries; a start is timed to the printed addresses.",
    )  # fmt: skip
    for size in sizes:
        with tempfile.TemporaryDirectory(prefix="altostratus-restarts-") as name:
            folder = Path(name)
            _fill(folder, size)
            times: dict[str, list[float]] = {"floor": [], "stop": [], "clean": [], "killed": []}
            for _ in range(tries):
                times["floor"].append(_read_floor(folder / "state.db"))
                served = _Served(folder)
                times["clean"].append(served.started)
                served.create(CHANGES)
                served.kill()
                served = _Served(folder)
                times["killed"].append(served.started)
                times["stop"].append(served.stop())
            floor, killed = median(times["floor"]), median(times["killed"])
            share = killed / floor
            table.add(
                f"{size:,}".replace(",", " "), f"{floor:.2f} s", f"{median(times['stop']):.2f} s",
                f"{median(times['clean']):.2f} s", f"{killed:.2f} s", f"{share:.2f}",
                f"≤ {TARGET:.1f}" if size >= 50_000 else INFO,
                verdict(share <= TARGET) if size >= 50_000 else INFO,
            )  # fmt: skip
            section.data[str(size)] = {name: median(v) for name, v in times.items()}
            section.data[str(size)]["database_bytes"] = (folder / "state.db").stat().st_size
    section.tables.append(table)
    return section
