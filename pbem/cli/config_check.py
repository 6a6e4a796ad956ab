"""`pbem config check`: each setting read, and each server reached, or what to fix."""

from __future__ import annotations

import imaplib
import smtplib
import ssl
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.exc import SQLAlchemyError

from pbem.daemon import mail_settings
from pbem.mail.config import ImapConfig, SmtpConfig
from pbem.mail.errors import MailConfigError
from pbem.settings import Settings, SettingsError, load_settings
from pbem.store import StoreError, database_engine
from pbem.store.migrate import schema_state

CONNECT_TIMEOUT = 10.0


@dataclass(frozen=True)
class Check:
    what: str
    ok: bool
    detail: str


def check_settings(config_file: Path | None = None) -> Iterator[Check]:
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
    if mail.imap is None or mail.smtp is None:
        yield Check("local Maildir", True, f"{mail.maildir} (no IMAP and/or SMTP server set)")
    if mail.imap is not None:
        yield _check_imap(mail.imap)
    if mail.smtp is not None:
        yield _check_smtp(mail.smtp)


def _check_database(settings: Settings) -> Check:
    # Reading only: a check never creates or upgrades the database.
    try:
        engine = database_engine(settings.database_url)
        try:
            state = schema_state(engine)
        finally:
            engine.dispose()
    except (StoreError, SQLAlchemyError, OSError) as exc:
        return Check("database", False, f"{exc}; check PBEM_DATABASE_URL")
    return Check("database", not (state.behind or state.ahead), f"reachable, {state.describe()}")


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
