"""Mail settings read from the environment: PBEM_IMAP_URL, PBEM_SMTP_URL, PBEM_MAILDIR, and the
ones kept out of the URLs (pbem.mail.secrets): PBEM_CA_FILE, password files, the OAuth2 token file.

Without PBEM_IMAP_URL the moderator reads mail from the local Maildir; without PBEM_SMTP_URL it
writes its outgoing mail there too, so a game can run on a machine with no mail server at all.

Options after '?', for both URLs: `starttls=1` (upgrade or give up), `starttls=0` (never
upgrade), neither (upgrade whenever the server offers it); `insecure=1` (a login may go in clear
text where the server offers no TLS); `auth=xoauth2` or `auth=oauthbearer` (log in with the
OAuth2 token of `pbem auth login` instead of a password).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import SplitResult, parse_qsl, unquote, urlsplit

from pbem.mail.errors import MailConfigError
from pbem.mail.oauth import OAuthLogin, SaslMechanism
from pbem.mail.secrets import MailSecrets
from pbem.mail.tls import TlsMode, TransportSecurity

IMAP_URL_VARIABLE = "PBEM_IMAP_URL"
SMTP_URL_VARIABLE = "PBEM_SMTP_URL"
MAILDIR_VARIABLE = "PBEM_MAILDIR"
DEFAULT_MAILDIR = Path("pbem-mail")

IMAP_DEFAULT_PORTS = {"imap": 143, "imaps": 993}
SMTP_DEFAULT_PORTS = {"smtp": 25, "smtps": 465}
TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off"}
OPTIONS = ("starttls", "insecure", "auth")
PASSWORD_AUTH = "password"
# A '%' not starting an escape: a password written as it is, which decoding would change.
BARE_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")
_PasswordReader = Callable[[str | None, str], str | None]
ENCODING_HINT = (
    "percent-encode these characters inside the user and password: "
    "'%' %25, '@' %40, ':' %3A, '/' %2F, '?' %3F, '#' %23, '[' %5B, ']' %5D, space %20"
)


@dataclass(frozen=True)
class ImapConfig:
    """Where the moderator's mailbox is. `folder` uses "/" between levels whatever the server.

    `tls`: TLS from the start (imaps://); `starttls`: True must upgrade, False never, None
    whenever offered. `password` is None when `oauth` logs in."""

    host: str
    port: int
    user: str
    password: str | None = field(repr=False)
    folder: str = "INBOX"
    tls: bool = False
    starttls: bool | None = None
    insecure: bool = False
    ca_file: Path | None = None
    oauth: OAuthLogin | None = None

    @property
    def address(self) -> str:
        """The mailbox named without the password, for logs and message sources."""
        scheme = "imaps" if self.tls else "imap"
        return f"{scheme}://{self.user}@{self.host}:{self.port}/{self.folder}"

    @property
    def security(self) -> TransportSecurity:
        return _security(self.tls, self.starttls, self.insecure, self.ca_file)


@dataclass(frozen=True)
class SmtpConfig:
    """Where outgoing mail is handed over. `tls`: TLS from the start; `starttls`: True must
    upgrade, False never, None whenever offered."""

    host: str
    port: int
    user: str | None = None
    password: str | None = field(default=None, repr=False)
    tls: bool = False
    starttls: bool | None = None
    insecure: bool = False
    ca_file: Path | None = None
    oauth: OAuthLogin | None = None

    @property
    def address(self) -> str:
        scheme = "smtps" if self.tls else "smtp"
        login = f"{self.user}@" if self.user else ""
        return f"{scheme}://{login}{self.host}:{self.port}"

    @property
    def security(self) -> TransportSecurity:
        return _security(self.tls, self.starttls, self.insecure, self.ca_file)


@dataclass(frozen=True)
class MailSettings:
    """The transports to use: a server where a URL is given, else the local Maildir."""

    imap: ImapConfig | None
    smtp: SmtpConfig | None
    maildir: Path

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> MailSettings:
        source = os.environ if env is None else env
        secrets = MailSecrets.from_env(source)
        imap_url = source.get(IMAP_URL_VARIABLE, "").strip()
        smtp_url = source.get(SMTP_URL_VARIABLE, "").strip()
        maildir = source.get(MAILDIR_VARIABLE, "").strip()
        return cls(
            imap=parse_imap_url(imap_url, secrets) if imap_url else None,
            smtp=parse_smtp_url(smtp_url, secrets) if smtp_url else None,
            maildir=Path(maildir) if maildir else DEFAULT_MAILDIR,
        )


@dataclass(frozen=True)
class _Options:
    starttls: bool | None
    insecure: bool
    oauth: OAuthLogin | None


def parse_imap_url(url: str, secrets: MailSecrets | None = None) -> ImapConfig:
    """`imap[s]://user[:password]@host[:port][/FOLDER][?options]`; user, password and folder
    percent-decoded; the password may instead come from a file (see pbem.mail.secrets)."""
    secrets = secrets or MailSecrets()
    parts = _split(url, IMAP_URL_VARIABLE, IMAP_DEFAULT_PORTS)
    options = _options(parts, IMAP_URL_VARIABLE, secrets)
    if not parts.username:
        raise MailConfigError(
            f"{IMAP_URL_VARIABLE} needs the mailbox's login: imap://user:password@host:port/INBOX "
            f"(or the password in {secrets.imap_password.file_variable}); {ENCODING_HINT}"
        )
    password = _password(parts, options, secrets.imap_password.read, IMAP_URL_VARIABLE)
    if password is None and options.oauth is None:
        raise MailConfigError(
            f"{IMAP_URL_VARIABLE} needs the mailbox's login, and gives no password for "
            f"{unquote(parts.username)!r}: write it in "
            f"the URL, or put it in the file named by {secrets.imap_password.file_variable}, or "
            "add ?auth=xoauth2 to log in with the token of `pbem auth login`"
        )
    _refuse_clear_text_login(options, IMAP_URL_VARIABLE)
    folder = unquote(parts.path.strip("/")) or "INBOX"
    return ImapConfig(
        host=_host(parts.hostname, IMAP_URL_VARIABLE),
        port=_port(parts, IMAP_URL_VARIABLE, IMAP_DEFAULT_PORTS),
        user=unquote(parts.username),
        password=password,
        folder=folder,
        tls=parts.scheme == "imaps",
        starttls=options.starttls,
        insecure=options.insecure,
        ca_file=secrets.ca_file,
        oauth=options.oauth,
    )


def parse_smtp_url(url: str, secrets: MailSecrets | None = None) -> SmtpConfig:
    """`smtp[s]://[user[:password]@]host[:port][?options]`; user and password percent-decoded;
    the password may instead come from a file (see pbem.mail.secrets)."""
    secrets = secrets or MailSecrets()
    parts = _split(url, SMTP_URL_VARIABLE, SMTP_DEFAULT_PORTS)
    if parts.path.strip("/"):
        raise MailConfigError(
            f"{SMTP_URL_VARIABLE} has no path (got {parts.path!r}): smtp://user:password@host:port"
        )
    options = _options(parts, SMTP_URL_VARIABLE, secrets)
    password = _password(parts, options, secrets.smtp_password.read, SMTP_URL_VARIABLE)
    if parts.username is None and (password is not None or options.oauth is not None):
        raise MailConfigError(
            f"{SMTP_URL_VARIABLE} names no user, yet a password or ?auth= is given: write "
            "smtp://user@host:port"
        )
    if parts.username is not None and password is None and options.oauth is None:
        raise MailConfigError(
            f"{SMTP_URL_VARIABLE} gives a user without a password: write both "
            f"(smtp://user:password@host:port, or the password in "
            f"{secrets.smtp_password.file_variable}) or neither"
        )
    if parts.username is not None:
        _refuse_clear_text_login(options, SMTP_URL_VARIABLE)
    return SmtpConfig(
        host=_host(parts.hostname, SMTP_URL_VARIABLE),
        port=_port(parts, SMTP_URL_VARIABLE, SMTP_DEFAULT_PORTS),
        user=unquote(parts.username) if parts.username is not None else None,
        password=password,
        tls=parts.scheme == "smtps",
        starttls=options.starttls,
        insecure=options.insecure,
        ca_file=secrets.ca_file,
        oauth=options.oauth,
    )


def _security(
    tls: bool, starttls: bool | None, insecure: bool, ca_file: Path | None
) -> TransportSecurity:
    if tls:
        mode = TlsMode.IMPLICIT
    elif starttls is None:
        mode = TlsMode.WHEN_OFFERED
    else:
        mode = TlsMode.STARTTLS if starttls else TlsMode.NEVER
    return TransportSecurity(mode, insecure, ca_file)


def _split(url: str, variable: str, schemes: Mapping[str, int]) -> SplitResult:
    scheme, separator, rest = url.partition("://")
    if scheme not in schemes or not separator:
        allowed = " or ".join(f"{scheme}://" for scheme in schemes)
        raise MailConfigError(f"{variable} must start with {allowed} (got {url.split('//')[0]!r})")
    _check_login_encoding(rest, variable)
    try:
        return urlsplit(url)
    except ValueError as error:  # e.g. an unencoded '[' taken for an IPv6 address
        raise MailConfigError(f"{variable} cannot be read ({error}); {ENCODING_HINT}") from error


def _check_login_encoding(rest: str, variable: str) -> None:
    """Catches a user or password written without percent-encoding, which would otherwise be
    read as something else (a '#' starts the fragment, so the host would be wrong)."""
    authority = re.split(r"[/?#]", rest, maxsplit=1)[0]
    if "@" not in authority:
        # "u:p#w@host": the '@' that ends the login comes after a character that ended the
        # server part early.
        if "@" in rest[len(authority) :]:
            raise MailConfigError(
                f"{variable}: the user or password contains {rest[len(authority)]!r}, which "
                f"ends the server part of a URL; {ENCODING_HINT}"
            )
        return
    if BARE_PERCENT.search(authority.rpartition("@")[0]):
        raise MailConfigError(
            f"{variable}: the user or password contains a '%' that starts no %XX escape; "
            f"{ENCODING_HINT}"
        )


def _options(parts: SplitResult, variable: str, secrets: MailSecrets) -> _Options:
    options = dict(parse_qsl(parts.query, keep_blank_values=True))
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise MailConfigError(
            f"{variable} has unknown option(s) {', '.join(unknown)}; known: starttls=1 or 0, "
            "insecure=1, auth=password, xoauth2 or oauthbearer (for TLS from the start use "
            f"{parts.scheme.removesuffix('s')}s://)"
        )
    starttls = _flag(options["starttls"], "starttls", variable) if "starttls" in options else None
    implicit = parts.scheme.endswith("s")
    if starttls and implicit:
        raise MailConfigError(
            f"{variable}: {parts.scheme}:// is already TLS from the start; drop ?starttls=1 "
            f"or use {parts.scheme[:-1]}://host?starttls=1"
        )
    insecure = _flag(options.get("insecure", "0"), "insecure", variable)
    if insecure and (implicit or starttls):
        raise MailConfigError(
            f"{variable}: ?insecure=1 only allows a login without TLS, and this URL asks for TLS; "
            "drop one of them"
        )
    auth = options.get("auth", PASSWORD_AUTH).strip().lower()
    if auth == PASSWORD_AUTH:
        return _Options(starttls, insecure, None)
    try:
        mechanism = SaslMechanism(auth)
    except ValueError as error:
        raise MailConfigError(
            f"{variable}: auth={auth!r} is unknown; use password, xoauth2 or oauthbearer"
        ) from error
    return _Options(starttls, insecure, OAuthLogin(mechanism, secrets.oauth_file))


def _refuse_clear_text_login(options: _Options, variable: str) -> None:
    """?starttls=0 with a login is a clear-text login: said at once rather than at each connect."""
    if options.starttls is False and not options.insecure:
        raise MailConfigError(
            f"{variable}: ?starttls=0 would send the login in clear text; drop it (STARTTLS is "
            "then used when offered), or add &insecure=1 on a trusted network"
        )


def _password(
    parts: SplitResult, options: _Options, read: _PasswordReader, variable: str
) -> str | None:
    url_password = unquote(parts.password) if parts.password is not None else None
    if options.oauth is not None:
        if url_password is not None:
            raise MailConfigError(
                f"{variable} has a password and ?auth={options.oauth.mechanism.value}: an OAuth2 "
                "login takes no password; drop it from the URL"
            )
        return None
    return read(url_password, variable)


def _host(hostname: str | None, variable: str) -> str:
    if not hostname:
        raise MailConfigError(f"{variable} names no server host")
    return hostname


def _port(parts: SplitResult, variable: str, schemes: Mapping[str, int]) -> int:
    try:
        port = parts.port
    except ValueError as error:
        raise MailConfigError(
            f"{variable} has a port that is not a number 1-65535 (or a password with "
            f"characters to encode; {ENCODING_HINT})"
        ) from error
    if port == 0:
        raise MailConfigError(f"{variable} has a port that is not a number 1-65535")
    return port if port is not None else schemes[parts.scheme]


def _flag(value: str, name: str, variable: str) -> bool:
    word = value.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise MailConfigError(f"{variable}: {name}={value!r} should be 1 or 0")
