"""Servers for the benchmarks: Dovecot and aiosmtpd from the test helpers, a PostgreSQL database
of the benchmark's own, and the settings that point pbem at them. Everything on 127.0.0.1.
"""

from __future__ import annotations

import imaplib
import os
import uuid
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from sqlalchemy import create_engine, text

from bench.arrivals import Arrival
from bench.smtp_process import SmtpProcess, running_smtp_process
from pbem.settings import Settings
from tests.support.db import POSTGRES_ADMIN_URL
from tests.support.dovecot import DovecotServer, running_dovecot

MODERATOR = "pbem@example.org"
# Where the intake moves what it handled: pbem/processed with Dovecot's "." separator.
PROCESSED_FOLDER = "pbem.processed"


@dataclass
class MailServers:
    dovecot: DovecotServer
    smtp: SmtpProcess

    def settings(self, database_url: str) -> Settings:
        return Settings(
            database_url=database_url,
            address=MODERATOR,
            imap_url=self.dovecot.imap_url(),
            smtp_url=self.smtp.url(),
        )

    def received(self) -> list[bytes]:
        return [mail.raw for mail in self.smtp.received()]

    def arrivals(self) -> list[Arrival]:
        return self.smtp.arrivals()


@contextmanager
def mail_servers() -> Iterator[MailServers]:
    """Dovecot (user `moderator`) and an aiosmtpd server that timestamps what it accepts, in a
    process of its own (bench/smtp_process.py)."""
    with running_dovecot() as dovecot, running_smtp_process() as smtp:
        yield MailServers(dovecot, smtp)


@contextmanager
def imap_client(dovecot: DovecotServer, user: str = "moderator") -> Iterator[imaplib.IMAP4]:
    """One logged-in imaplib connection: appending hundreds of messages through one is quick."""
    with dovecot.connection(user) as client:
        yield client


def append_all(client: imaplib.IMAP4, raws: Iterable[bytes], folder: str = "INBOX") -> int:
    count = 0
    for raw in raws:
        status, detail = client.append(folder, None, None, raw)
        if status != "OK":
            raise RuntimeError(f"APPEND refused: {detail!r}")
        count += 1
    return count


@contextmanager
def postgres_database() -> Iterator[str]:
    """The URL of a new database on the local PostgreSQL server, dropped afterwards."""
    admin = create_engine(POSTGRES_ADMIN_URL, isolation_level="AUTOCOMMIT")
    name = f"pbem_bench_{uuid.uuid4().hex[:12]}"
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield admin.url.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def pbem_environment(settings: Settings) -> dict[str, str]:
    """The environment for a `pbem run` subprocess over `settings`."""
    values = {
        "PBEM_DATABASE_URL": settings.database_url,
        "PBEM_ADDRESS": settings.address,
        "PBEM_IMAP_URL": settings.imap_url or "",
        "PBEM_SMTP_URL": settings.smtp_url or "",
        "PBEM_MAILDIR": settings.maildir,
        # No pbem.toml from the working directory may change what is measured.
        "PBEM_CONFIG": os.devnull,
    }
    return {**os.environ, **values}
