"""What pbem's throughput is measured against: loops that do only the mail, no moderator.

- The bare loop fetches each order email and sends a short reply of its own (300 bytes).
- The fair floor fetches the same emails and sends, over one SMTP connection, exactly the
  emails pbem sent for them (their bytes and envelopes as the SMTP server received them): the
  same mail traffic as pbem's, without the moderator's work in between.

Both fetch one message at a time with imaplib from pbem/processed (read-only), as pbem fetched
them from the INBOX, and return the messages fetched and the seconds: on the clock, and of
processor time (the SMTP server works in a process of its own, bench/smtp_process.py, and is
counted in neither).
"""

from __future__ import annotations

import imaplib
import smtplib
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from email.parser import BytesHeaderParser

from bench.servers import MODERATOR, PROCESSED_FOLDER, MailServers
from tests.support.procfs import proc_stat
from tests.support.smtpd import ReceivedMail


@dataclass(frozen=True)
class Timing:
    messages: int
    seconds: float
    cpu_seconds: float
    """Processor time: this process's, and pbem's sending process's when it has one."""


@dataclass
class Stopwatch:
    """Wall and process time from its start, added up over the `timed` stretches."""

    seconds: float = 0.0
    cpu_seconds: float = 0.0

    @contextmanager
    def timed(self) -> Iterator[None]:
        began, cpu = time.perf_counter(), time.process_time()
        try:
            yield
        finally:
            self.seconds += time.perf_counter() - began
            self.cpu_seconds += time.process_time() - cpu

    def timing(self, messages: int, other_cpu_seconds: float = 0.0) -> Timing:
        return Timing(messages, self.seconds, self.cpu_seconds + other_cpu_seconds)


@dataclass
class ProcessorTime:
    """Another process's processor time (user and system, from Linux's /proc), added up over the
    `timed` stretches; none when there is no process."""

    pid: int | None
    seconds: float = 0.0

    @contextmanager
    def timed(self) -> Iterator[None]:
        began = self._now()
        try:
            yield
        finally:
            self.seconds += self._now() - began

    def _now(self) -> float:
        stat = None if self.pid is None else proc_stat(self.pid)
        return 0.0 if stat is None else stat.cpu_seconds


@contextmanager
def _connections(servers: MailServers) -> Iterator[tuple[imaplib.IMAP4, smtplib.SMTP]]:
    dovecot = servers.dovecot
    client = imaplib.IMAP4(dovecot.host, dovecot.port)
    client.login("moderator", dovecot.users["moderator"])
    client.select(PROCESSED_FOLDER, readonly=True)
    smtp = smtplib.SMTP(servers.smtp.host, servers.smtp.port)
    try:
        yield client, smtp
    finally:
        smtp.quit()
        client.logout()


def _uids(client: imaplib.IMAP4) -> list[bytes]:
    _, found = client.uid("SEARCH", "ALL")
    return list(found[0].split())


def _fetch(client: imaplib.IMAP4, uid: bytes) -> bytes:
    _, parts = client.uid("FETCH", uid, "(BODY.PEEK[])")
    raw = parts[0][1]
    assert isinstance(raw, bytes)
    return raw


def bare_loop(servers: MailServers) -> Timing:
    """Fetch every message in pbem/processed and answer each with a short reply."""
    parser = BytesHeaderParser(policy=policy.default)
    watch = Stopwatch()
    with _connections(servers) as (client, smtp), watch.timed():
        uids = _uids(client)
        for uid in uids:
            headers = parser.parsebytes(_fetch(client, uid))
            reply = EmailMessage()
            reply["From"] = MODERATOR
            reply["To"] = headers["From"]
            reply["Subject"] = f"Re: {headers['Subject']}"
            reply["In-Reply-To"] = headers["Message-ID"]
            reply.set_content("Received.\n")
            smtp.send_message(reply)
    return watch.timing(len(uids))


def fair_floor(servers: MailServers, sent: Sequence[ReceivedMail]) -> Timing:
    """Fetch every message in pbem/processed and send `sent` (what pbem sent for them), spread
    evenly over the messages in the order pbem sent them."""
    watch = Stopwatch()
    with _connections(servers) as (client, smtp), watch.timed():
        uids = _uids(client)
        for index, uid in enumerate(uids):
            _fetch(client, uid)
            share = sent[len(sent) * index // len(uids) : len(sent) * (index + 1) // len(uids)]
            for mail in share:
                smtp.sendmail(mail.sender, list(mail.recipients), mail.raw)
    return watch.timing(len(uids))
