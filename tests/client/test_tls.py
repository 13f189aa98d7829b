"""TLS: a client of an ``https://`` API verifies the server against the process's one set of
certificate roots; a client of an ``http://`` API (the emulator) does not load them, trusts no
server at all on its own connections, and reaches an ``https://`` address elsewhere (a store's
S3 endpoint) through a client that verifies it."""

from __future__ import annotations

import datetime
import http.server
import ipaddress
import ssl
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from altostratus.client import Client
from altostratus.client._http import HTTPClient, shared_tls
from altostratus.client._settings import Settings
from altostratus.client.errors import APIConnectionError


def _certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and its key, as PEM files."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.timezone.utc)
    made = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(hours=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    certificate, private = folder / "server.pem", folder / "server.key"
    certificate.write_bytes(made.public_bytes(serialization.Encoding.PEM))
    private.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return certificate, private


class _Answer(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Length", "7")
        self.end_headers()
        self.wfile.write(b"reached")

    def log_message(self, *_: object) -> None:
        pass


@pytest.fixture
def tls_server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """An HTTPS server on loopback with a self-signed certificate: its URL and the certificate."""
    certificate, private = _certificate(tmp_path)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Answer)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(certificate, private)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"https://127.0.0.1:{server.server_address[1]}/", certificate
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def roots_cleared() -> Iterator[None]:
    """The process's certificate roots forgotten before and after the test."""
    shared_tls.cache_clear()
    yield
    shared_tls.cache_clear()


def test_a_client_of_an_http_api_does_not_load_the_certificate_roots(roots_cleared: None) -> None:
    with Client(api_key="k", api_url="http://127.0.0.1:9"):
        assert shared_tls.cache_info().currsize == 0
    with Client(api_key="k", api_url="https://127.0.0.1:9"):
        assert shared_tls.cache_info().currsize == 1


def test_an_http_apis_client_trusts_no_server_on_its_own_connections(
    tls_server: tuple[str, Path], roots_cleared: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    url, certificate = tls_server
    monkeypatch.setenv("SSL_CERT_FILE", str(certificate))  # the server is trusted by the roots
    http = HTTPClient(Settings(api_key="k", api_url="http://127.0.0.1:9", region="LON1"))
    try:
        with pytest.raises(httpx.ConnectError, match="CERTIFICATE_VERIFY_FAILED"):
            http._client.get(url)
    finally:
        http.close()


def test_an_https_address_elsewhere_is_verified_against_the_roots(
    tls_server: tuple[str, Path], roots_cleared: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    url, certificate = tls_server
    http = HTTPClient(Settings(api_key="k", api_url="http://127.0.0.1:9", region="LON1"))
    try:
        # Not trusted by the roots: refused, not read unchecked.
        with pytest.raises(APIConnectionError, match="CERTIFICATE_VERIFY_FAILED"):
            http.get_elsewhere(url, {})
    finally:
        http.close()
    shared_tls.cache_clear()
    monkeypatch.setenv("SSL_CERT_FILE", str(certificate))
    http = HTTPClient(Settings(api_key="k", api_url="http://127.0.0.1:9", region="LON1"))
    try:
        assert http.get_elsewhere(url, {}) == (200, b"reached")
    finally:
        http.close()
