"""The hashed trust folder the zip carries: a handshake trusts exactly the issuers it holds."""

from __future__ import annotations

import shutil
import socket
import ssl
import subprocess
import threading
from pathlib import Path

import certifi
import pytest

from infra import package
from infra.aws.connections import trusting

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command"),
]


def issue(folder: Path) -> tuple[Path, Path, Path]:
    """A test authority and a localhost certificate it signed: (authority, cert, key)."""
    ca_key, ca, key, request, cert = (folder / n for n in ("ca.key", "ca.pem", "k", "r", "c"))
    run = lambda *a: subprocess.run(["openssl", *a], check=True, capture_output=True)  # noqa: E731
    run(
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        ca_key,
        "-out",
        ca,
        "-days",
        "2",
        "-subj",
        "/CN=Decapitation test authority",
    )
    run(
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        key,
        "-out",
        request,
        "-subj",
        "/CN=localhost",
        "-addext",
        "subjectAltName=DNS:localhost",
    )
    extensions = folder / "ext"
    extensions.write_text("subjectAltName=DNS:localhost\n")
    run(
        "x509",
        "-req",
        "-in",
        request,
        "-CA",
        ca,
        "-CAkey",
        ca_key,
        "-CAcreateserial",
        "-out",
        cert,
        "-days",
        "2",
        "-extfile",
        extensions,
    )
    return ca, cert, key


def handshake(context: ssl.SSLContext, cert: Path, key: Path) -> None:
    """One TLS handshake with a loopback server presenting `cert`."""
    server = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server.load_cert_chain(cert, key)
    with socket.create_server(("127.0.0.1", 0)) as listener:
        port = listener.getsockname()[1]

        def serve() -> None:
            connection, _ = listener.accept()
            try:
                with server.wrap_socket(connection, server_side=True):
                    pass
            except (ssl.SSLError, OSError):
                pass

        thread = threading.Thread(target=serve, daemon=True)
        thread.start()
        try:
            with (
                socket.create_connection(("127.0.0.1", port), timeout=5) as raw,
                context.wrap_socket(raw, server_hostname="localhost"),
            ):
                pass
        finally:
            thread.join(5)


def test_a_hashed_folder_trusts_a_server_whose_issuer_it_holds_and_no_other(
    tmp_path: Path,
) -> None:
    ca, cert, key = issue(tmp_path)
    some = "".join(package.CERTIFICATE_PEM.findall(Path(certifi.where()).read_text())[:5])
    bundle, others = tmp_path / "bundle.pem", tmp_path / "others.pem"
    bundle.write_text(some + ca.read_text())
    others.write_text(some)
    with_ours, without = tmp_path / "with", tmp_path / "without"
    assert package.split_trust_store(bundle, with_ours) == 6
    package.split_trust_store(others, without)

    handshake(trusting(str(with_ours)), cert, key)
    with pytest.raises(ssl.SSLCertVerificationError):
        handshake(trusting(str(without)), cert, key)
