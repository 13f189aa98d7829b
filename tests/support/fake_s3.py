"""A loopback S3 gone wrong: every request answered with one fixed answer (an HTML page from a
proxy, XML of another namespace, a refusal), for the object store's delete guard."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

HTML = b"<html><head><title>Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>"
NO_NAMESPACE = (
    b'<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>b</Name>'
    b"<KeyCount>1</KeyCount><IsTruncated>false</IsTruncated>"
    b"<Contents><Key>kept.txt</Key><Size>4</Size></Contents></ListBucketResult>"
)
REFUSED = (
    b'<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code>'
    b"<Message>Access Denied</Message></Error>"
)
NO_BUCKET = (
    b'<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchBucket</Code>'
    b"<Message>The specified bucket does not exist</Message></Error>"
)


@contextmanager
def fake_s3(status: int, body: bytes, content_type: str) -> Iterator[str]:
    """A loopback server answering every request with one answer: an S3 gone wrong."""

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
