"""`pbem config check --probe`: one email from the moderator to its own plus-address, sent the
way the daemon sends and awaited in the mailbox the daemon reads.

It proves what the other checks cannot: that the provider accepts the moderator's mail, and
delivers `pbem+anything@` to the same mailbox (each seat's replies arrive at such an address).
The probe is marked `Auto-Submitted`, so a daemon that reads it first ignores it (and files it
away, where the probe looks too); it is deleted once found.
"""

from __future__ import annotations

import secrets
import time
from email.message import EmailMessage
from email.utils import make_msgid

from imapclient.exceptions import IMAPClientError

from pbem.mail.config import ImapConfig, SmtpConfig
from pbem.mail.errors import MailError
from pbem.mail.imap import FAILED_FOLDER, PROCESSED_FOLDER
from pbem.mail.imap_session import ImapSession
from pbem.mail.smtp import SmtpSender

PROBE_HEADER = "X-Pbem-Probe"
POLL_SECONDS = 1.0
IMAP_TIMEOUT = 30.0


class ProbeFailed(RuntimeError):
    """The probe was not sent, or did not arrive; the message says which and what to look at."""


def probe(address: str, smtp: SmtpConfig, imap: ImapConfig, timeout: float) -> str:
    """Send the probe and wait up to `timeout` seconds for it; what happened, or ProbeFailed."""
    token = secrets.token_hex(6)
    local, _, domain = address.partition("@")
    to = f"{local}+probe-{token}@{domain}"
    message = EmailMessage()
    message["From"] = address
    message["To"] = to
    message["Subject"] = f"pbem probe {token}"
    message["Message-ID"] = make_msgid(idstring="probe", domain=domain)
    message["Auto-Submitted"] = "auto-generated"
    message[PROBE_HEADER] = token
    message.set_content("pbem config check --probe: this email may be deleted.\n")
    started = time.monotonic()
    sender = SmtpSender(smtp)
    try:
        result = sender.send(message.as_bytes(), [to], address)
    finally:
        sender.close()
    if not result.ok:
        failure = (result.temporary + result.permanent)[0]
        raise ProbeFailed(f"{smtp.address} did not take the probe to {to}: {failure.reason}")
    try:
        waited = _await(imap, token, started + timeout)
    except (MailError, IMAPClientError, OSError) as exc:
        raise ProbeFailed(f"{imap.address}: {exc}; check PBEM_IMAP_URL") from exc
    if waited is None:
        raise ProbeFailed(
            f"sent {to} through {smtp.address}, but it did not reach {imap.address} within "
            f"{timeout:g} s: does the provider deliver plus-addresses ({to}) to this mailbox, "
            "and not to a spam folder?"
        )
    return f"{to} sent through {smtp.address} and read from {imap.address} after {waited:.1f} s"


def _await(imap: ImapConfig, token: str, deadline: float) -> float | None:
    """Seconds until the probe was found (and deleted), or None when the deadline passed.

    Logged in as the daemon logs in; the probe is looked for where the daemon reads and also
    where it files what it has read, in case a running daemon took it first.
    """
    begun = time.monotonic()
    session = ImapSession.open(imap, PROCESSED_FOLDER, FAILED_FOLDER, IMAP_TIMEOUT)
    client = session.client
    try:
        while True:
            for folder in (session.folders.source, session.folders.processed):
                client.select_folder(folder)
                found = client.search(["HEADER", PROBE_HEADER, token])
                if found:
                    client.delete_messages(found)
                    # UID EXPUNGE removes only the probe; a plain EXPUNGE, every deleted message.
                    client.expunge(found if client.has_capability("UIDPLUS") else None)
                    return time.monotonic() - begun
            if time.monotonic() >= deadline:
                return None
            time.sleep(POLL_SECONDS)
    finally:
        session.close()
