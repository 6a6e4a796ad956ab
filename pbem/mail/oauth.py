"""OAuth2 logins (XOAUTH2, OAUTHBEARER): the token file, the refresh grant, the SASL strings.

`pbem auth login` puts a refresh token in the token file (PBEM_OAUTH_FILE, mode 0600). The mail
transports ask `TokenFile.access_token()` for a token each time they log in; it is renewed with
the standard refresh grant (RFC 6749 section 6) when less than `RENEW_MARGIN` seconds of it are
left, and the file is rewritten, since a provider may hand out a new refresh token with it.

Why a file and not the database: the refresh token opens the whole mailbox, like a password, so
it stays out of database dumps and backups, out of a PostgreSQL server other people run, and
out of the mail layer's contract (which knows no database); a file can be given its own mode
and its own place in a systemd StateDirectory.
"""

from __future__ import annotations

import fcntl
import json
import os
import stat
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, replace
from enum import Enum
from pathlib import Path
from urllib.error import HTTPError
from urllib.parse import urlencode, urlsplit
from urllib.request import Request, urlopen

from pbem.mail.errors import MailError

RENEW_MARGIN = 300.0
"""Seconds before expiry when an access token is renewed: a login never uses one about to end."""
REFRESH_TIMEOUT = 30.0
FILE_MODE = 0o600
LOOPBACK_HOSTS = {"127.0.0.1", "::1", "localhost"}

Clock = Callable[[], float]


class SaslMechanism(Enum):
    XOAUTH2 = "xoauth2"
    """Google's and Microsoft's own mechanism; what both document for IMAP and SMTP."""
    OAUTHBEARER = "oauthbearer"
    """RFC 7628, the standard one (Gmail, Dovecot; not Microsoft 365)."""


class OAuthError(MailError):
    """The token file is missing or unusable, or the provider refused the refresh token: run
    `pbem auth login` again."""


@dataclass(frozen=True)
class OAuthGrant:
    """What the token file holds: the refresh token and how to renew the access token."""

    provider: str
    user: str
    client_id: str
    token_endpoint: str
    refresh_token: str
    client_secret: str | None = None
    scope: str | None = None
    """Sent with each refresh where the provider wants the scopes again (Microsoft)."""
    access_token: str | None = None
    expires_at: float = 0.0
    """Unix time at which `access_token` stops working."""

    def __repr__(self) -> str:
        return f"OAuthGrant(provider={self.provider!r}, user={self.user!r}, ...)"


@dataclass(frozen=True)
class OAuthLogin:
    """How a transport logs in with OAuth2: which SASL mechanism, which token file."""

    mechanism: SaslMechanism
    token_file: Path


@dataclass(frozen=True)
class TokenFile:
    path: Path
    clock: Clock = time.time

    def load(self) -> OAuthGrant:
        try:
            mode = self.path.stat().st_mode
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError as error:
            raise OAuthError(
                f"the OAuth2 token file {self.path} does not exist: run `pbem auth login` "
                "(or set PBEM_OAUTH_FILE to where it is)"
            ) from error
        except (OSError, ValueError) as error:
            raise OAuthError(
                f"the OAuth2 token file {self.path} cannot be read: {error}"
            ) from error
        if stat.S_IMODE(mode) & 0o077:
            raise OAuthError(
                f"the OAuth2 token file {self.path} can be read by others (mode "
                f"{stat.S_IMODE(mode):o}): chmod 600 it, and consider the token leaked"
            )
        try:
            return OAuthGrant(**data)
        except TypeError as error:
            raise OAuthError(f"the OAuth2 token file {self.path} is not pbem's: {error}") from error

    def save(self, grant: OAuthGrant) -> None:
        """Writes the whole file anew, 0600 from the start, replacing the old one at once."""
        partial = self.path.with_name(f".{self.path.name}.new")
        descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
        os.fchmod(descriptor, FILE_MODE)  # a leftover from an interrupted save keeps its mode
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            json.dump(asdict(grant), handle, indent=2)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(partial, self.path)

    def access_token(self) -> str:
        """A token good for at least RENEW_MARGIN seconds, renewed (and saved) when needed.

        Raises OAuthError when the provider refuses the refresh token, OSError when it cannot
        be reached (try again later)."""
        return self._renewed(force=False).access_token or ""

    def renew(self) -> OAuthGrant:
        """A new access token now, whatever is left of the old one (`pbem auth refresh`)."""
        return self._renewed(force=True)

    def _renewed(self, force: bool) -> OAuthGrant:
        with self._locked():
            grant = self.load()
            if not force and grant.access_token and not self.expiring(grant):
                return grant
            renewed = refresh(grant, self.clock)
            self.save(renewed)
        return renewed

    def expiring(self, grant: OAuthGrant) -> bool:
        return grant.expires_at - self.clock() <= RENEW_MARGIN

    @contextmanager
    def _locked(self) -> Iterator[None]:
        """One refresh at a time across processes (the daemon, `pbem auth refresh`): a provider
        that rotates refresh tokens would otherwise see the old one used twice."""
        lock_path = self.path.with_name(f".{self.path.name}.lock")
        descriptor = os.open(lock_path, os.O_RDWR | os.O_CREAT, FILE_MODE)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX)
            yield
        finally:
            os.close(descriptor)


def refresh(grant: OAuthGrant, clock: Clock = time.time) -> OAuthGrant:
    """The refresh grant: a new access token (and maybe a new refresh token) from the provider."""
    check_endpoint(grant.token_endpoint)
    form = {
        "grant_type": "refresh_token",
        "refresh_token": grant.refresh_token,
        "client_id": grant.client_id,
    }
    if grant.client_secret:
        form["client_secret"] = grant.client_secret
    if grant.scope:
        form["scope"] = grant.scope
    request = Request(
        grant.token_endpoint,
        data=urlencode(form).encode(),
        headers={"Accept": "application/json"},
    )
    asked_at = clock()
    try:
        with urlopen(request, timeout=REFRESH_TIMEOUT) as response:
            answer = json.loads(response.read())
    except HTTPError as error:
        if error.code >= 500:
            raise  # the provider's trouble: an OSError, so the transports try again later
        raise OAuthError(
            f"{grant.provider} refused to renew the OAuth2 token of {grant.user} "
            f"({error.code} {_error_text(error)}): run `pbem auth login` again"
        ) from error
    except ValueError as error:
        raise OAuthError(f"{grant.token_endpoint} did not answer with JSON: {error}") from error
    token = answer.get("access_token") if isinstance(answer, dict) else None
    lifetime = answer.get("expires_in", 3600) if isinstance(answer, dict) else None
    if not isinstance(token, str) or not token or not isinstance(lifetime, int | float | str):
        raise OAuthError(f"{grant.token_endpoint} answered without an access_token")
    try:
        expires_at = asked_at + float(lifetime)
    except ValueError as error:
        raise OAuthError(f"{grant.token_endpoint} gave expires_in={lifetime!r}") from error
    return replace(
        grant,
        access_token=token,
        expires_at=expires_at,
        refresh_token=answer.get("refresh_token") or grant.refresh_token,
    )


def check_endpoint(url: str) -> None:
    """A token endpoint must be https, except on this machine (a test's own endpoint)."""
    parts = urlsplit(url)
    if parts.scheme == "https" or (parts.scheme == "http" and parts.hostname in LOOPBACK_HOSTS):
        return
    raise OAuthError(f"the token endpoint {url} must be an https:// URL")


def _error_text(error: HTTPError) -> str:
    try:
        answer = json.loads(error.read())
    except (OSError, ValueError):
        return error.reason
    if isinstance(answer, dict) and "error" in answer:
        return " ".join(str(answer[key]) for key in ("error", "error_description") if key in answer)
    return error.reason


def xoauth2_string(user: str, token: str) -> str:
    """The XOAUTH2 initial response (before base64)."""
    return f"user={user}\x01auth=Bearer {token}\x01\x01"


def oauthbearer_string(user: str, token: str, host: str, port: int) -> str:
    """The RFC 7628 initial response (before base64): a GS2 header naming the user, then the
    host, port and bearer token."""
    authzid = user.replace("=", "=3D").replace(",", "=2C")
    return f"n,a={authzid},\x01host={host}\x01port={port}\x01auth=Bearer {token}\x01\x01"


def sasl_string(login: OAuthLogin, user: str, host: str, port: int) -> str:
    """The initial response for `login`'s mechanism, with a token fresh enough to use now."""
    token = TokenFile(login.token_file).access_token()
    if login.mechanism is SaslMechanism.XOAUTH2:
        return xoauth2_string(user, token)
    return oauthbearer_string(user, token, host, port)
