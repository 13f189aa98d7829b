"""A load generator, run in its own process: ``python -m benchmarks.load URL KEY SECONDS CLIENTS
PATH [reuse]`` runs CLIENTS threads for SECONDS and prints JSON counts.

Each thread sends GET PATH, or, when PATH is ``create+delete``, creates a network and deletes it
(counted as one operation). Without ``reuse`` every request opens a new connection; with it each
thread keeps one connection for as long as the server keeps it open, as a real client does.
"""

from __future__ import annotations

import http.client
import json
import sys
import threading
import time
from urllib.parse import urlsplit

CREATE_DELETE = "create+delete"


def _send(
    connection: http.client.HTTPConnection,
    method: str,
    path: str,
    headers: dict[str, str],
    body: bytes | None = None,
) -> tuple[int, bytes]:
    connection.request(method, path, body=body, headers=headers)
    answer = connection.getresponse()
    return answer.status, answer.read()


def _operation(
    connection: http.client.HTTPConnection, path: str, headers: dict[str, str], number: int
) -> bool:
    if path != CREATE_DELETE:
        return _send(connection, "GET", path, headers)[0] == 200
    body = json.dumps({"label": f"load-{number}"}).encode()
    status, created = _send(connection, "POST", "/v2/vpc/networks", headers, body)
    if status != 200:
        return False
    network_id = json.loads(created)["id"]
    return _send(connection, "DELETE", f"/v2/vpc/networks/{network_id}", headers)[0] == 200


def _client(address: str, key: str, path: str, stop: float, reuse: bool, counts: list[int]) -> None:
    headers = {
        "Authorization": f"bearer {key}",
        "Accept": "application/json",
        "Content-Type": "application/json",
    }
    done = failed = 0
    connection = http.client.HTTPConnection(address, timeout=30)
    while time.monotonic() < stop:
        try:
            if _operation(connection, path, headers, done + failed):
                done += 1
            else:
                failed += 1
        except (OSError, http.client.HTTPException):
            failed += 1
            connection.close()
        if not reuse:
            connection.close()
    connection.close()
    counts.extend([done, failed])


def main(argv: list[str]) -> int:
    url, key, seconds, clients, path, *mode = argv
    address = urlsplit(url).netloc
    reuse = mode == ["reuse"]
    stop = time.monotonic() + float(seconds)
    results: list[list[int]] = [[] for _ in range(int(clients))]
    threads = [
        threading.Thread(target=_client, args=(address, key, path, stop, reuse, counts))
        for counts in results
    ]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started
    done = sum(counts[0] for counts in results)
    failed = sum(counts[1] for counts in results)
    print(json.dumps({"requests": done, "errors": failed, "seconds": elapsed}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
