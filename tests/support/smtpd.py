"""A real SMTP server for tests (aiosmtpd) on 127.0.0.1 and a free port, recording what it gets.

It can be stopped and started again on the same port (the server being down), made to answer
chosen recipients with a 4xx or 5xx reply, made to require a login (a password, or an OAuth2
bearer token checked by a function), and made to speak TLS (SMTPS, or STARTTLS required before
any login) with a test certificate.
"""

from __future__ import annotations

import ssl
import threading
import time
from base64 import b64decode
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, AuthResult, Envelope, LoginPassword, Session

from tests.support.certs import SelfSignedCa
from tests.support.dovecot import HOST, free_port

WAIT_STEP = 0.01


@dataclass(frozen=True)
class ReceivedMail:
    sender: str
    recipients: tuple[str, ...]
    raw: bytes
    peer: tuple[str, int]
    """The client's address and port: the same port means the same connection."""


class RecordingHandler:
    """aiosmtpd handler: refuses the recipients told to, records every accepted message."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._received: list[ReceivedMail] = []
        self._replies: dict[str, str] = {}

    def reply_to(self, address: str, reply: str) -> None:
        with self._lock:
            self._replies[address.lower()] = reply

    def accept(self, address: str) -> None:
        """Stop refusing `address`."""
        with self._lock:
            self._replies.pop(address.lower(), None)

    def received(self) -> list[ReceivedMail]:
        with self._lock:
            return list(self._received)

    async def handle_RCPT(
        self,
        server: SMTP,
        session: Session,
        envelope: Envelope,
        address: str,
        rcpt_options: list[str],
    ) -> str:
        with self._lock:
            reply = self._replies.get(address.lower())
        if reply is not None:
            return reply
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        raw = envelope.original_content or b""
        mail = ReceivedMail(
            sender=str(envelope.mail_from),
            recipients=tuple(envelope.rcpt_tos),
            raw=raw,
            peer=tuple(session.peer),  # type: ignore[arg-type]
        )
        with self._lock:
            self._received.append(mail)
        return "250 Message accepted for delivery"


BearerCheck = Callable[[str], str | None]
"""An access token -> the user it was issued to, or None when it is not (or no longer) valid."""


class OAuthRecordingHandler(RecordingHandler):
    """Also takes AUTH XOAUTH2 and AUTH OAUTHBEARER (with an initial response), asking
    `bearer_check` about the token."""

    def __init__(self, bearer_check: BearerCheck) -> None:
        super().__init__()
        self.bearer_check = bearer_check
        self.mechanisms_used: list[str] = []

    async def auth_XOAUTH2(self, server: SMTP, args: list[str]) -> AuthResult:
        return self._check("XOAUTH2", args)

    async def auth_OAUTHBEARER(self, server: SMTP, args: list[str]) -> AuthResult:
        return self._check("OAUTHBEARER", args)

    def _check(self, mechanism: str, args: list[str]) -> AuthResult:
        if len(args) != 2:
            return AuthResult(success=False)
        fields = b64decode(args[1]).decode().split("\x01")
        user = next(
            (field.removeprefix("user=") for field in fields if field.startswith("user=")), None
        )
        if fields[0].startswith("n,a="):  # OAUTHBEARER's GS2 header names the user
            user = fields[0].removeprefix("n,a=").rstrip(",")
        token = next(
            (f.removeprefix("auth=Bearer ") for f in fields if f.startswith("auth=Bearer ")), ""
        )
        if user is None or self.bearer_check(token) != user:
            return AuthResult(success=False)
        with self._lock:
            self.mechanisms_used.append(mechanism)
        return AuthResult(success=True)


class SmtpServer:
    """`start`/`stop` any number of times; the port and the record of received mail stay."""

    def __init__(
        self,
        credentials: Mapping[str, str] | None = None,
        tls: SelfSignedCa | None = None,
        implicit_tls: bool = False,
        bearer_check: BearerCheck | None = None,
    ) -> None:
        """`tls` with `implicit_tls`: SMTPS; `tls` alone: STARTTLS, required before anything
        else (a login included)."""
        self.host = HOST
        self.port = free_port()
        self.handler = (
            RecordingHandler() if bearer_check is None else OAuthRecordingHandler(bearer_check)
        )
        self.credentials = dict(credentials) if credentials else None
        self.tls = tls
        self.implicit_tls = implicit_tls
        self._controller: Controller | None = None

    def start(self) -> None:
        logs_in = self.credentials is not None or isinstance(self.handler, OAuthRecordingHandler)
        context = None
        if self.tls is not None:
            context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            context.load_cert_chain(self.tls.cert_file, self.tls.key_file)
        starttls = context is not None and not self.implicit_tls
        self._controller = Controller(
            self.handler,
            hostname=self.host,
            port=self.port,
            authenticator=self._authenticate if self.credentials is not None else None,
            # Plain-text login without TLS: acceptable on 127.0.0.1 in a test. aiosmtpd counts
            # only STARTTLS as TLS, so over SMTPS it must not ask for more.
            auth_require_tls=starttls or not logs_in,
            ssl_context=context if self.implicit_tls else None,
            tls_context=context if starttls else None,
            require_starttls=starttls,
            # Mail only after a login; aiosmtpd warns about it unless STARTTLS is required too.
            auth_required=logs_in and starttls,
        )
        self._controller.start()

    def stop(self) -> None:
        if self._controller is not None:
            self._controller.stop()
            self._controller = None

    def url(self, user: str | None = None) -> str:
        if user is None or self.credentials is None:
            return f"smtp://{self.host}:{self.port}"
        # This server offers no TLS, so a login needs ?insecure=1.
        return f"smtp://{user}:{self.credentials[user]}@{self.host}:{self.port}?insecure=1"

    def received(self) -> list[ReceivedMail]:
        return self.handler.received()

    def wait_for(self, count: int, timeout: float = 5.0) -> list[ReceivedMail]:
        """The received mail once there are `count` messages (the server works in a thread)."""
        deadline = time.monotonic() + timeout
        while len(received := self.received()) < count and time.monotonic() < deadline:
            time.sleep(WAIT_STEP)
        return received

    def _authenticate(
        self, server: SMTP, session: Session, envelope: Envelope, mechanism: str, data: object
    ) -> AuthResult:
        assert self.credentials is not None
        if isinstance(data, LoginPassword):
            user, password = data.login.decode(), data.password.decode()
            if self.credentials.get(user) == password:
                return AuthResult(success=True)
        return AuthResult(success=False, handled=False)


@contextmanager
def running_smtpd(
    credentials: Mapping[str, str] | None = None,
    tls: SelfSignedCa | None = None,
    implicit_tls: bool = False,
    bearer_check: BearerCheck | None = None,
) -> Iterator[SmtpServer]:
    server = SmtpServer(credentials, tls, implicit_tls, bearer_check)
    server.start()
    try:
        yield server
    finally:
        server.stop()
