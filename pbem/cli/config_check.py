"""`pbem config check`: each setting read, and each server reached, or what to fix."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from imapclient.exceptions import IMAPClientError
from sqlalchemy.exc import SQLAlchemyError

from pbem.cli.probe import ProbeFailed, probe
from pbem.daemon import mail_settings
from pbem.mail.config import ImapConfig, MailSettings, SmtpConfig
from pbem.mail.errors import MailConfigError, MailError
from pbem.mail.imap_session import open_client, server_folder
from pbem.mail.smtp_session import open_smtp
from pbem.settings import DEFAULT_ADDRESS, Settings, SettingsError, load_settings
from pbem.store import StoreError, database_engine
from pbem.store.migrate import schema_state

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
