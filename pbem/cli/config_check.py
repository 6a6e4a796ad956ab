"""`pbem config check`: each setting read, and each server reached, or what to fix."""

from __future__ import annotations

import imaplib
import smtplib
import ssl
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from pbem.cli.probe import ProbeFailed, probe
from pbem.daemon import mail_settings
from pbem.mail.config import ImapConfig, MailSettings, SmtpConfig
from pbem.mail.errors import MailConfigError
from pbem.settings import DEFAULT_ADDRESS, Settings, SettingsError, load_settings
from pbem.store import StoreError, open_database

CONNECT_TIMEOUT = 10.0


@dataclass(frozen=True)
class Check:
    what: str
    ok: bool
    detail: str


def check_settings(
    config_file: Path | None = None, probe_timeout: float | None = None
) -> Iterator[Check]:
    """Each check in turn; with `probe_timeout`, also a probe email sent to the moderator's own
    plus-address and awaited over IMAP for that many seconds."""
    try:
        settings = load_settings(config_file)
    except SettingsError as exc:
        yield Check("settings", False, str(exc))
        return
    yield Check("settings", True, f"moderator address {settings.address}")
    yield _check_database(settings)
    try:
        mail = mail_settings(settings)
    except MailConfigError as exc:
        yield Check("mail settings", False, str(exc))
        return
    yield _check_servers_paired(mail)
    if mail.imap is None and mail.smtp is None:
        yield Check("local Maildir", True, f"{mail.maildir} (no IMAP or SMTP server set)")
        if probe_timeout is not None:
            yield Check("probe", False, "needs PBEM_IMAP_URL and PBEM_SMTP_URL: nothing to probe")
        return
    yield _check_address(settings)
    if mail.imap is not None:
        yield _check_imap(mail.imap)
    if mail.smtp is not None:
        yield _check_smtp(mail.smtp)
    if probe_timeout is not None:
        if mail.imap is None or mail.smtp is None:
            yield Check("probe", False, "needs both PBEM_IMAP_URL and PBEM_SMTP_URL")
        else:
            yield _probe(settings.address, mail.smtp, mail.imap, probe_timeout)


def _probe(address: str, smtp: SmtpConfig, imap: ImapConfig, timeout: float) -> Check:
    try:
        return Check("probe", True, probe(address, smtp, imap, timeout))
    except ProbeFailed as exc:
        return Check("probe", False, str(exc))


def _check_servers_paired(mail: MailSettings) -> Check:
    """One server without the other sends or reads mail through the local Maildir unseen."""
    given = {"PBEM_IMAP_URL": mail.imap is not None, "PBEM_SMTP_URL": mail.smtp is not None}
    if all(given.values()) or not any(given.values()):
        both = mail.imap is not None
        return Check("mail servers", True, "IMAP and SMTP" if both else "neither: local Maildir")
    missing = next(name for name, there in given.items() if not there)
    present = next(name for name, there in given.items() if there)
    lost = {
        "PBEM_SMTP_URL": f"every reply would be written to {mail.maildir}/sent and never sent",
        "PBEM_IMAP_URL": f"players' orders would be looked for in {mail.maildir} and never read",
    }[missing]
    return Check(
        "mail servers",
        False,
        f"{present} is set but {missing} is not: {lost}; set both, or neither for the local "
        "Maildir",
    )


def _check_address(settings: Settings) -> Check:
    """Players reply to the moderator's address: with real servers it must be the mailbox's."""
    if settings.address == DEFAULT_ADDRESS or settings.domain == "localhost":
        return Check(
            "moderator address",
            False,
            f"PBEM_ADDRESS is {settings.address}, which no player can reach: set the address of "
            "the mailbox PBEM_IMAP_URL reads, e.g. pbem@example.org",
        )
    return Check("moderator address", True, settings.address)


def _check_database(settings: Settings) -> Check:
    try:
        engine = open_database(settings.database_url)
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
        engine.dispose()
    except (StoreError, SQLAlchemyError, OSError) as exc:
        return Check("database", False, f"{exc}; check PBEM_DATABASE_URL")
    return Check("database", True, "reachable and migrated")


def _check_imap(config: ImapConfig) -> Check:
    try:
        client_type = imaplib.IMAP4_SSL if config.tls else imaplib.IMAP4
        client = client_type(config.host, config.port, timeout=CONNECT_TIMEOUT)
        try:
            client.login(config.user, config.password)
            status, _ = client.select(config.folder, readonly=True)
        finally:
            client.logout()
    except (OSError, imaplib.IMAP4.error) as exc:
        return Check("IMAP", False, f"{config.address}: {exc}; check PBEM_IMAP_URL")
    if status != "OK":
        return Check("IMAP", False, f"{config.address}: no folder {config.folder}")
    return Check("IMAP", True, f"{config.address}: logged in, folder found")


def _check_smtp(config: SmtpConfig) -> Check:
    try:
        client_type = smtplib.SMTP_SSL if config.tls else smtplib.SMTP
        with client_type(config.host, config.port, timeout=CONNECT_TIMEOUT) as client:
            if config.starttls:
                client.starttls(context=ssl.create_default_context())
            if config.user and config.password:
                client.login(config.user, config.password)
            client.noop()
    except (OSError, smtplib.SMTPException) as exc:
        return Check("SMTP", False, f"{config.address}: {exc}; check PBEM_SMTP_URL")
    logged_in = ", logged in" if config.user else ""
    return Check("SMTP", True, f"{config.address}: connected{logged_in}")
