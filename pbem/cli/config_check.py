"""`pbem config check`: each setting read, and each server reached, or what to fix."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from imapclient.exceptions import IMAPClientError
from sqlalchemy.exc import SQLAlchemyError

from pbem.daemon import mail_settings
from pbem.mail.config import ImapConfig, SmtpConfig
from pbem.mail.errors import MailConfigError, MailError
from pbem.mail.imap_session import open_client, server_folder
from pbem.mail.smtp_session import open_smtp
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
    # The daemon's own connection function: TLS, certificates and login are checked as it uses them.
    try:
        client = open_client(config, CONNECT_TIMEOUT)
        try:
            found = client.folder_exists(server_folder(client, config.folder))
        finally:
            client.logout()
    except (OSError, IMAPClientError, MailError) as exc:
        return Check("IMAP", False, f"{config.address}: {exc}; check PBEM_IMAP_URL")
    if not found:
        return Check("IMAP", False, f"{config.address}: no folder {config.folder}")
    return Check("IMAP", True, f"{config.address}: logged in, folder found")


def _check_smtp(config: SmtpConfig) -> Check:
    try:
        with open_smtp(config, CONNECT_TIMEOUT) as client:
            client.noop()
    except OSError as exc:  # smtplib's and ssl's errors included
        return Check("SMTP", False, f"{config.address}: {exc}; check PBEM_SMTP_URL")
    logged_in = ", logged in" if config.user else ""
    return Check("SMTP", True, f"{config.address}: connected{logged_in}")
