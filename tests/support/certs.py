"""A throw-away certificate authority for TLS tests, made with the `openssl` command.

`make_ca(directory, name)` gives a CA and a server certificate it signed for 127.0.0.1 and
localhost; a second CA made the same way is the "wrong CA" a client must refuse.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path

OPENSSL = "openssl"
DAYS = "2"
# What strict verification (VERIFY_X509_STRICT) wants of a server certificate; the CA gets
# openssl's v3_ca extensions and a key usage.
SERVER_EXTENSIONS = """\
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = IP:127.0.0.1, DNS:localhost
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
"""


@dataclass(frozen=True)
class SelfSignedCa:
    ca_file: Path
    """The CA's certificate: what a client trusts (PBEM_CA_FILE)."""
    cert_file: Path
    """The server's certificate, signed by the CA."""
    key_file: Path
    """The server's private key."""


def make_ca(directory: Path, name: str = "pbem-test") -> SelfSignedCa:
    directory.mkdir(parents=True, exist_ok=True)
    ca_key, ca_cert = directory / f"{name}-ca.key", directory / f"{name}-ca.pem"
    key, csr, cert = (directory / f"{name}-server.{ext}" for ext in ("key", "csr", "pem"))
    server_ext = directory / f"{name}-server.ext"
    server_ext.write_text(SERVER_EXTENSIONS)
    new_key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
    _openssl(
        "req",
        "-x509",
        *new_key,
        "-keyout",
        ca_key,
        "-out",
        ca_cert,
        "-days",
        DAYS,
        "-subj",
        f"/CN={name} CA",
        "-extensions",
        "v3_ca",
        "-addext",
        "keyUsage=critical,keyCertSign,cRLSign",
    )
    _openssl("req", *new_key, "-keyout", key, "-out", csr, "-subj", "/CN=127.0.0.1")
    _openssl(
        "x509",
        "-req",
        "-in",
        csr,
        "-CA",
        ca_cert,
        "-CAkey",
        ca_key,
        "-CAcreateserial",
        "-out",
        cert,
        "-days",
        DAYS,
        "-extfile",
        server_ext,
    )
    return SelfSignedCa(ca_cert, cert, key)


def _openssl(*arguments: str | Path) -> None:
    subprocess.run([OPENSSL, *map(str, arguments)], check=True, capture_output=True, timeout=30)
