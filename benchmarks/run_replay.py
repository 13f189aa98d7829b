"""The floor of ``altostratus run PROJECT``: a fresh process that starts the same embedded
emulator and sends the requests one run made (recorded, see ``benchmarks.replay``) with one bare
httpx client, then stops: the interpreter, the emulator and the requests, with no engine, no
program and no provider process. It imports nothing of the library but the emulator, and ends
as the command does (``altostratus.cli.entry``: the heap frozen before the interpreter's
teardown), so that the two differ only by the work of the deployment.

``python -m benchmarks.run_replay FILE`` replays the exchanges in FILE (written by ``record``);
with ``--import-pulumi`` it imports the Pulumi SDK first, as every Pulumi program does: the
floor plus the SDK's import. ``record(project)`` runs the project up and down through
``altostratus.testing`` and keeps its requests.
"""

from __future__ import annotations

import base64
import gc
import json
import sys
from pathlib import Path

from benchmarks.replay import Exchange


def record(project: Path, into: Path) -> int:
    """Record one up + destroy of ``project`` into ``into``; how many requests it made."""
    from altostratus.emulator import Emulator
    from altostratus.testing import ProviderProcesses, Stack
    from benchmarks.replay import Recorder

    processes = ProviderProcesses()
    try:
        with Emulator() as emulator:
            recorder = Recorder(emulator.api_url)
            try:
                stack = Stack(
                    project,
                    config={"altostratus:apiUrl": recorder.url},
                    secrets={"altostratus:apiKey": emulator.api_key},
                    processes=processes,
                )
                stack.up()
                stack.destroy()
            finally:
                recorder.close()
    finally:
        processes.close()
    kept = [
        {**vars(e), "body": base64.b64encode(e.body).decode(), "answer": e.answer.decode()}
        for e in recorder.exchanges
    ]
    into.write_text(json.dumps(kept))
    return len(kept)


def load(path: Path) -> list[Exchange]:
    found = []
    for item in json.loads(path.read_text()):
        item["body"] = base64.b64decode(item["body"])
        item["answer"] = item["answer"].encode()
        found.append(Exchange(**item))
    return found


def main(path: str, import_pulumi: bool = False) -> int:
    if import_pulumi:
        import pulumi  # noqa: F401

    from altostratus.emulator import Emulator
    from benchmarks.replay import raw_client, replay

    exchanges = load(Path(path))
    with Emulator() as emulator, raw_client(emulator.api_url, emulator.api_key) as http:
        statuses = replay(http, exchanges)
    if statuses != [e.status for e in exchanges]:
        print(f"the replay was answered {statuses}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    code = main(sys.argv[1], import_pulumi="--import-pulumi" in sys.argv[2:])
    gc.freeze()
    sys.exit(code)
