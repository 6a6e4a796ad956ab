"""TLS for the mail transports: one verifying context, and the rule that a login never travels in
clear text unless the URL says `?insecure=1`.

Certificates are always verified, against `PBEM_CA_FILE` when it is set (a private CA, a
self-signed server), else against the system's store. Nothing here turns verification off:
`insecure=1` only allows a server that offers no TLS at all.
"""

from __future__ import annotations

import ssl
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from pbem.mail.errors import MailError


class TlsMode(Enum):
    """How a connection gets its TLS."""

    IMPLICIT = "implicit"
    """imaps:// and smtps://: TLS from the first byte."""
    STARTTLS = "starttls"
    """`?starttls=1`: upgrade, and give up if the server does not offer it."""
    WHEN_OFFERED = "when offered"
    """The default for imap:// and smtp://: upgrade whenever the server offers STARTTLS."""
    NEVER = "never"
    """`?starttls=0`: stay in clear text (a local relay whose certificate cannot be verified)."""


@dataclass(frozen=True)
class TransportSecurity:
    mode: TlsMode = TlsMode.WHEN_OFFERED
    insecure: bool = False
    """True: a login may be sent without TLS when the connection has none."""
    ca_file: Path | None = None
    """Certificates of the CAs to trust instead of the system's (PBEM_CA_FILE)."""


class TlsFailure(MailError):
    """TLS could not be had as the settings demand: no retry cures it; the message says what to
    change."""


class InsecureConnection(TlsFailure):
    """The connection has no TLS and a login would have been sent in clear text."""


def client_context(ca_file: Path | None) -> ssl.SSLContext:
    """A context that verifies the server's certificate and name, against `ca_file` if given."""
    return ssl.create_default_context(cafile=str(ca_file) if ca_file is not None else None)


def check_login_allowed(encrypted: bool, security: TransportSecurity, address: str) -> None:
    """Raises InsecureConnection when a login is about to be sent in clear text without
    `?insecure=1`."""
    if encrypted or security.insecure:
        return
    if security.mode is TlsMode.NEVER:
        why = "?starttls=0 keeps the connection in clear text"
    else:
        why = "the server offers no STARTTLS"
    raise InsecureConnection(
        f"{address}: {why}, and pbem will not send a login in clear text: use the TLS port "
        "(imaps:// or smtps://), or add ?insecure=1 to the URL if the network is trusted"
    )


def must_upgrade(mode: TlsMode, offered: bool, address: str) -> bool:
    """Whether to send STARTTLS, given what the server offers; raises InsecureConnection when
    `?starttls=1` demands it and the server does not offer it."""
    if mode is TlsMode.STARTTLS and not offered:
        raise InsecureConnection(
            f"{address}: ?starttls=1 is set but the server does not offer STARTTLS"
        )
    return offered and mode in (TlsMode.STARTTLS, TlsMode.WHEN_OFFERED)


def certificate_refused(
    error: ssl.SSLCertVerificationError, address: str, ca_file: Path | None
) -> str:
    """What to tell of a server certificate that does not verify, and what to change."""
    trusted = f"the CA file {ca_file}" if ca_file else "the system's CA store"
    return (
        f"the certificate of {address} does not verify against {trusted}: "
        f"{error.verify_message}; set PBEM_CA_FILE to the CA that signed it, or fix the host "
        "name in the URL"
    )
