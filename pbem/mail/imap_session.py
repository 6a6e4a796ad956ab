"""One logged-in IMAP connection with the moderator's folder selected, and the few commands the
intake needs. Connection problems surface as `SESSION_ERRORS`; the intake decides what to do."""

from __future__ import annotations

import ssl
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any

from imapclient import IMAPClient
from imapclient.exceptions import IMAPClientError, LoginError

from pbem.mail.config import ImapConfig
from pbem.mail.errors import MailError
from pbem.mail.oauth import SaslMechanism, TokenFile
from pbem.mail.timing import WAKE_CHECK_SECONDS, Clock, Interrupted, never
from pbem.mail.tls import (
    TlsFailure,
    TlsMode,
    certificate_refused,
    check_login_allowed,
    client_context,
    must_upgrade,
)

SEEN = b"\\Seen"
BODY = b"BODY[]"
# Network failures, a dropped connection (imaplib's abort) and refused commands (NO/BAD, which a
# server also answers while it is shutting down): all are cured by reconnecting later.
SESSION_ERRORS: tuple[type[Exception], ...] = (OSError, IMAPClientError)
# RFC 5530: the server cannot log anyone in right now; anything else means bad credentials.
UNAVAILABLE = b"[UNAVAILABLE]"
# RFC 2177: a client should end IDLE before the server's 30-minute inactivity timeout.
IDLE_RENEWAL = 25 * 60.0


@dataclass(frozen=True)
class ServerFolders:
    """The folders the intake uses, as the server names them."""

    source: str
    processed: str
    failed: str


def server_folder_name(name: str, prefix: str, delimiter: str) -> str:
    """`name` written with "/" between levels, as this server spells it (e.g. "INBOX.pbem.x")."""
    if name.upper() == "INBOX":
        return "INBOX"
    spelled = delimiter.join(name.split("/")) if delimiter else name
    if prefix and not spelled.startswith(prefix):
        spelled = prefix + spelled
    return spelled


class ImapSession:
    """A connected, logged-in client with the source folder selected."""

    def __init__(self, client: IMAPClient, folders: ServerFolders, uidvalidity: int) -> None:
        self.client = client
        self.folders = folders
        self.uidvalidity = uidvalidity
        self.can_idle = client.has_capability("IDLE")
        self._can_move = client.has_capability("MOVE")
        self._can_expunge_uids = client.has_capability("UIDPLUS")

    @classmethod
    def open(cls, config: ImapConfig, processed: str, failed: str, timeout: float) -> ImapSession:
        """Connects, logs in, creates the processed/failed folders if missing, selects the source.

        Raises MailError for what reconnecting cannot cure (TLS refused, credentials, a
        missing folder).
        """
        client = open_client(config, timeout)
        try:
            prefix, delimiter = _personal_namespace(client)
            folders = ServerFolders(
                source=server_folder_name(config.folder, prefix, delimiter),
                processed=server_folder_name(processed, prefix, delimiter),
                failed=server_folder_name(failed, prefix, delimiter),
            )
            if not client.folder_exists(folders.source):
                raise MailError(
                    f"the folder {config.folder!r} does not exist in {config.address}: "
                    "fix the folder in PBEM_IMAP_URL"
                )
            for folder in (folders.processed, folders.failed):
                if not client.folder_exists(folder):
                    _create_folder(client, folder)
            selected = client.select_folder(folders.source)
        except BaseException:
            _abandon(client)
            raise
        return cls(client, folders, int(selected[b"UIDVALIDITY"]))

    def waiting_uids(self) -> list[int]:
        """Every message still in the folder: acknowledged mail has been moved out, so what is
        here is work, seen or not (a crash between flagging and moving leaves a message seen)."""
        # NOOP first: a server takes in mail other clients delivered only between commands, so a
        # SEARCH alone can miss a message that arrived a moment ago.
        self.client.noop()
        return sorted(self.client.search(["NOT", "DELETED"]))

    def fetch_raw(self, uids: Iterable[int]) -> dict[int, bytes]:
        """Raw messages by UID; PEEK so fetching does not mark them seen before they are stored.
        A UID expunged meanwhile by another client is simply absent."""
        fetched = self.client.fetch(list(uids), ["BODY.PEEK[]"])
        return {uid: data[BODY] for uid, data in fetched.items() if BODY in data}

    def acknowledge(self, uids: list[int]) -> None:
        """Marks the messages seen and moves them to the processed folder, in two commands."""
        with _already_gone():
            self.client.add_flags(uids, [SEEN], silent=True)
        with _already_gone():
            self._move(uids, self.folders.processed)

    def set_aside(self, uid: int) -> None:
        """Moves the message to the failed folder, unseen so the GM notices it."""
        with _already_gone():
            self._move([uid], self.folders.failed)

    def _move(self, uids: list[int], folder: str) -> None:
        # A UID that is already gone matches nothing and the server answers OK, so repeating a
        # move that was interrupted after the server did it is harmless.
        if self._can_move:
            self.client.move(uids, folder)
            return
        self.client.copy(uids, folder)
        self.client.delete_messages(uids, silent=True)
        if self._can_expunge_uids:
            self.client.uid_expunge(uids)
        else:
            # Without UIDPLUS the only expunge there is removes every message marked deleted.
            self.client.expunge()

    def idle_until_mail(
        self, timeout: float, clock: Clock, interrupted: Interrupted = never
    ) -> bool:
        """IDLE until the server announces new mail (True), `timeout` passes or `interrupted`
        says so (False). One IDLE lasts until then, renewed only every `IDLE_RENEWAL`: asking
        `interrupted` between two waits for the server's responses sends nothing.

        Raises ConnectionResetError when the server says goodbye while idling.
        """
        deadline = clock() + timeout
        while (remaining := deadline - clock()) > 0 and not interrupted():
            self.client.idle()
            responses = self._idle_responses(
                clock() + min(remaining, IDLE_RENEWAL), clock, interrupted
            )
            _, late_responses = self.client.idle_done()
            if any(_announces_mail(response) for response in [*responses, *late_responses]):
                return True
        return False

    def _idle_responses(self, until: float, clock: Clock, interrupted: Interrupted) -> list[Any]:
        """The server's responses while idling, up to `until`, the first mail or an interruption."""
        responses: list[Any] = []
        while (left := until - clock()) > 0 and not interrupted():
            step = min(left, WAKE_CHECK_SECONDS)
            started = clock()
            arrived = self.client.idle_check(timeout=step)
            if any(response[0] == b"BYE" for response in arrived):
                raise ConnectionResetError("the IMAP server closed the connection (BYE)")
            # imapclient answers a closed connection with no responses at once, not an error.
            if not arrived and clock() - started < step / 2:
                raise ConnectionResetError("the IMAP server closed the connection")
            responses.extend(arrived)
            if any(_announces_mail(response) for response in arrived):
                break
        return responses

    def close(self) -> None:
        try:
            self.client.logout()
        except SESSION_ERRORS:
            _abandon(self.client)

    def abandon(self) -> None:
        """Closes a connection that already failed, without talking to the server."""
        _abandon(self.client)


def _abandon(client: IMAPClient) -> None:
    # The socket is closed either way; an error only says the server had already hung up.
    with suppress(OSError):
        client.shutdown()


def _announces_mail(response: tuple[object, ...]) -> bool:
    # "* n EXISTS" is how a server in IDLE tells of new mail; expunges and flag changes are not.
    return len(response) >= 2 and response[1] == b"EXISTS"


def open_client(config: ImapConfig, timeout: float) -> IMAPClient:
    """Connected (over TLS unless the settings allow otherwise, see pbem.mail.tls) and logged in.

    Raises MailError for what reconnecting cannot cure: a certificate that does not verify, a
    login that would go in clear text, refused credentials or OAuth2 token."""
    security = config.security
    implicit = security.mode is TlsMode.IMPLICIT
    # The context is made only for a connection that uses TLS: loading the CA store costs
    # milliseconds, each time a connection opens.
    context = client_context(security.ca_file) if implicit else None
    try:
        client = IMAPClient(
            config.host, port=config.port, ssl=implicit, ssl_context=context, timeout=timeout
        )
    except ssl.SSLCertVerificationError as error:
        raise _certificate_refused(error, config) from error
    try:
        if must_upgrade(security.mode, client.has_capability("STARTTLS"), config.address):
            client.starttls(client_context(security.ca_file))
        check_login_allowed(_encrypted(client), security, config.address)
        _login(client, config)
    except ssl.SSLCertVerificationError as error:
        _abandon(client)
        raise _certificate_refused(error, config) from error
    except BaseException:
        _abandon(client)
        raise
    return client


def _encrypted(client: IMAPClient) -> bool:
    return isinstance(client.socket(), ssl.SSLSocket)


def _certificate_refused(error: ssl.SSLCertVerificationError, config: ImapConfig) -> TlsFailure:
    """A MailError: no retry cures it. (Any other TLS error is a handshake cut short, an OSError
    to be retried.)"""
    return TlsFailure(certificate_refused(error, config.address, config.ca_file))


def _login(client: IMAPClient, config: ImapConfig) -> None:
    try:
        if config.oauth is not None:
            token = TokenFile(config.oauth.token_file).access_token()
            if config.oauth.mechanism is SaslMechanism.XOAUTH2:
                client.oauth2_login(config.user, token)
            else:
                client.oauthbearer_login(config.user, token)
        else:
            assert config.password is not None  # the settings demand one without OAuth2
            client.login(config.user, config.password)
    except LoginError as error:
        if UNAVAILABLE in str(error).encode():
            raise
        what = "OAuth2 token" if config.oauth is not None else "user and password"
        raise MailError(
            f"the IMAP server refused the login of {config.address}: {error}; "
            f"check the {what} (PBEM_IMAP_URL, pbem auth status)"
        ) from error


def server_folder(client: IMAPClient, name: str) -> str:
    """`name` ("/" between levels) as the server `client` is logged in to spells it."""
    return server_folder_name(name, *_personal_namespace(client))


def _personal_namespace(client: IMAPClient) -> tuple[str, str]:
    """(prefix, delimiter) of the user's own folders, e.g. ("", ".") or ("INBOX.", ".")."""
    if client.has_capability("NAMESPACE"):
        personal = client.namespace().personal
        if personal:
            prefix, delimiter = personal[0]
            return prefix, delimiter or ""
    listing = client.list_folders("", "")
    delimiter = listing[0][1] if listing else None
    return "", delimiter.decode() if isinstance(delimiter, bytes) else (delimiter or "")


def _create_folder(client: IMAPClient, folder: str) -> None:
    try:
        client.create_folder(folder)
    except IMAPClientError as error:
        # Another daemon starting at the same moment created it first: just as good.
        if "ALREADYEXISTS" not in str(error):
            raise
    client.subscribe_folder(folder)


@contextmanager
def _already_gone() -> Iterator[None]:
    """Another daemon on the same folder moved the messages first: the work is done.

    Dovecot answers a command on messages another session expunged with NO [EXPUNGEISSUED];
    that is not a broken connection, so it must not make the intake reconnect.
    """
    try:
        yield
    except IMAPClientError as error:
        if "EXPUNGEISSUED" not in str(error):
            raise
