"""A receiver that verifies each delivery before trusting it, and skips retried duplicates.

WEBHOOK_SECRET=$(pulumi stack output secret --show-secrets) python receiver.py --port 8789
"""

from __future__ import annotations

import argparse
import os
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from altostratus.webhooks import InvalidDeliveryError, parse_delivery, verify_signature

SECRET = os.environ.get("WEBHOOK_SECRET", "")
seen_events: set[str] = set()


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        # Verify over the raw bytes, before parsing anything.
        if not verify_signature(body, self.headers.get("X-Service-Signature"), SECRET):
            self.send_response(401)
            self.end_headers()
            return
        try:
            delivery = parse_delivery(body, dict(self.headers.items()), secret=SECRET)
        except InvalidDeliveryError:
            self.send_response(400)
            self.end_headers()
            return
        self.send_response(200)
        self.end_headers()
        if delivery.event_id in seen_events:
            return  # a retry of an event already handled
        if delivery.event_id:
            seen_events.add(delivery.event_id)
        print(f"{delivery.event} {delivery.resource_id}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, default=8789)
    args = parser.parse_args()
    if not SECRET:
        raise SystemExit("set WEBHOOK_SECRET to the webhook's secret")
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Receiver)
    print(f"listening on http://127.0.0.1:{server.server_address[1]}/", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
