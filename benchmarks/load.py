"""A load generator, run in its own process: ``python -m benchmarks.load URL KEY SECONDS CLIENTS
PATH`` sends GET PATH from CLIENTS threads for SECONDS and prints JSON counts."""

from __future__ import annotations

import http.client
import json
import sys
import threading
import time
from urllib.parse import urlsplit


def _client(address: str, key: str, path: str, stop: float, counts: list[int]) -> None:
    headers = {"Authorization": f"bearer {key}", "Accept": "application/json"}
    done = failed = 0
    while time.monotonic() < stop:
        connection = http.client.HTTPConnection(address, timeout=30)
        try:
            connection.request("GET", path, headers=headers)
            answer = connection.getresponse()
            answer.read()
            if answer.status == 200:
                done += 1
            else:
                failed += 1
        except OSError:
            failed += 1
        finally:
            connection.close()
    counts.extend([done, failed])


def main(argv: list[str]) -> int:
    url, key, seconds, clients, path = argv
    address = urlsplit(url).netloc
    stop = time.monotonic() + float(seconds)
    results: list[list[int]] = [[] for _ in range(int(clients))]
    threads = [
        threading.Thread(target=_client, args=(address, key, path, stop, counts))
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
