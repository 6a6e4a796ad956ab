"""Mail settings read from the environment: PBEM_IMAP_URL, PBEM_SMTP_URL, PBEM_MAILDIR.

Without PBEM_IMAP_URL the moderator reads mail from the local Maildir; without PBEM_SMTP_URL it
writes its outgoing mail there too, so a game can run on a machine with no mail server at all.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import SplitResult, parse_qsl, unquote, urlsplit

from pbem.mail.errors import MailConfigError

IMAP_URL_VARIABLE = "PBEM_IMAP_URL"
SMTP_URL_VARIABLE = "PBEM_SMTP_URL"
MAILDIR_VARIABLE = "PBEM_MAILDIR"
DEFAULT_MAILDIR = Path("pbem-mail")

IMAP_DEFAULT_PORTS = {"imap": 143, "imaps": 993}
SMTP_DEFAULT_PORTS = {"smtp": 25, "smtps": 465}
TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off"}


@dataclass(frozen=True)
class ImapConfig:
    """Where the moderator's mailbox is. `folder` uses "/" between levels whatever the server."""

    host: str
    port: int
    user: str
    password: str = field(repr=False)
    folder: str = "INBOX"
    tls: bool = False

    @property
    def address(self) -> str:
        """The mailbox named without the password, for logs and message sources."""
        scheme = "imaps" if self.tls else "imap"
        return f"{scheme}://{self.user}@{self.host}:{self.port}/{self.folder}"


@dataclass(frozen=True)
class SmtpConfig:
    """Where outgoing mail is handed over. `tls`: TLS from the start; `starttls`: upgrade."""

    host: str
    port: int
    user: str | None = None
    password: str | None = field(default=None, repr=False)
    tls: bool = False
    starttls: bool = False

    @property
    def address(self) -> str:
        scheme = "smtps" if self.tls else "smtp"
        login = f"{self.user}@" if self.user else ""
        return f"{scheme}://{login}{self.host}:{self.port}"


@dataclass(frozen=True)
class MailSettings:
    """The transports to use: a server where a URL is given, else the local Maildir."""

    imap: ImapConfig | None
    smtp: SmtpConfig | None
    maildir: Path

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> MailSettings:
        source = os.environ if env is None else env
        imap_url = source.get(IMAP_URL_VARIABLE, "").strip()
        smtp_url = source.get(SMTP_URL_VARIABLE, "").strip()
        maildir = source.get(MAILDIR_VARIABLE, "").strip()
        return cls(
            imap=parse_imap_url(imap_url) if imap_url else None,
            smtp=parse_smtp_url(smtp_url) if smtp_url else None,
            maildir=Path(maildir) if maildir else DEFAULT_MAILDIR,
        )


def parse_imap_url(url: str) -> ImapConfig:
    """`imap[s]://user:password@host[:port][/FOLDER]`; user, password, folder percent-decoded."""
    parts = _split(url, IMAP_URL_VARIABLE, IMAP_DEFAULT_PORTS)
    if parts.query:
        raise MailConfigError(
            f"{IMAP_URL_VARIABLE} takes no options after '?' (got {parts.query!r}); "
            "use imaps:// for TLS"
        )
    if not parts.username or parts.password is None:
        raise MailConfigError(
            f"{IMAP_URL_VARIABLE} needs the mailbox's login: imap://user:password@host:port/INBOX "
            "(percent-encode '@', ':' and '/' inside them, e.g. %40 for '@')"
        )
    folder = unquote(parts.path.strip("/")) or "INBOX"
    return ImapConfig(
        host=_host(parts.hostname, IMAP_URL_VARIABLE),
        port=_port(parts, IMAP_URL_VARIABLE, IMAP_DEFAULT_PORTS),
        user=unquote(parts.username),
        password=unquote(parts.password),
        folder=folder,
        tls=parts.scheme == "imaps",
    )


def parse_smtp_url(url: str) -> SmtpConfig:
    """`smtp[s]://[user:password@]host[:port][?starttls=1]`; user and password percent-decoded."""
    parts = _split(url, SMTP_URL_VARIABLE, SMTP_DEFAULT_PORTS)
    if parts.path.strip("/"):
        raise MailConfigError(
            f"{SMTP_URL_VARIABLE} has no path (got {parts.path!r}): smtp://user:password@host:port"
        )
    options = dict(parse_qsl(parts.query, keep_blank_values=True))
    unknown = sorted(set(options) - {"starttls"})
    if unknown:
        raise MailConfigError(
            f"{SMTP_URL_VARIABLE} has unknown option(s) {', '.join(unknown)}; the only one is "
            "starttls=1"
        )
    starttls = _flag(options.get("starttls", "0"), "starttls")
    if starttls and parts.scheme == "smtps":
        raise MailConfigError(
            f"{SMTP_URL_VARIABLE}: smtps:// is already TLS from the start; drop ?starttls=1 "
            "or use smtp://host:587?starttls=1"
        )
    if (parts.username is None) != (parts.password is None):
        raise MailConfigError(
            f"{SMTP_URL_VARIABLE} gives a user without a password or the other way round: "
            "write both (smtp://user:password@host:port) or neither"
        )
    return SmtpConfig(
        host=_host(parts.hostname, SMTP_URL_VARIABLE),
        port=_port(parts, SMTP_URL_VARIABLE, SMTP_DEFAULT_PORTS),
        user=unquote(parts.username) if parts.username is not None else None,
        password=unquote(parts.password) if parts.password is not None else None,
        tls=parts.scheme == "smtps",
        starttls=starttls,
    )


def _split(url: str, variable: str, schemes: Mapping[str, int]) -> SplitResult:
    parts = urlsplit(url)
    if parts.scheme not in schemes:
        allowed = " or ".join(f"{scheme}://" for scheme in schemes)
        raise MailConfigError(f"{variable} must start with {allowed} (got {url.split('//')[0]!r})")
    return parts


def _host(hostname: str | None, variable: str) -> str:
    if not hostname:
        raise MailConfigError(f"{variable} names no server host")
    return hostname


def _port(parts: SplitResult, variable: str, schemes: Mapping[str, int]) -> int:
    try:
        port = parts.port
    except ValueError as error:
        raise MailConfigError(f"{variable} has a port that is not a number 1-65535") from error
    if port == 0:
        raise MailConfigError(f"{variable} has a port that is not a number 1-65535")
    return port if port is not None else schemes[parts.scheme]


def _flag(value: str, name: str) -> bool:
    word = value.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise MailConfigError(f"{SMTP_URL_VARIABLE}: {name}={value!r} should be 1 or 0")
