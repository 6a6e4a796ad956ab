"""A real SMTP server for tests (aiosmtpd) on 127.0.0.1 and a free port, recording what it gets.

It can be stopped and started again on the same port (the server being down), made to answer
chosen recipients with a 4xx or 5xx reply, and made to require a login.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, AuthResult, Envelope, LoginPassword, Session

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


class SmtpServer:
    """`start`/`stop` any number of times; the port and the record of received mail stay."""

    def __init__(self, credentials: Mapping[str, str] | None = None) -> None:
        self.host = HOST
        self.port = free_port()
        self.handler = RecordingHandler()
        self.credentials = dict(credentials) if credentials else None
        self._controller: Controller | None = None

    def start(self) -> None:
        logs_in = self.credentials is not None
        self._controller = Controller(
            self.handler,
            hostname=self.host,
            port=self.port,
            authenticator=self._authenticate if logs_in else None,
            # Plain-text login without TLS: acceptable on 127.0.0.1 in a test.
            auth_require_tls=not logs_in,
        )
        self._controller.start()

    def stop(self) -> None:
        if self._controller is not None:
            self._controller.stop()
            self._controller = None

    def url(self, user: str | None = None) -> str:
        if user is None or self.credentials is None:
            return f"smtp://{self.host}:{self.port}"
        return f"smtp://{user}:{self.credentials[user]}@{self.host}:{self.port}"

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
def running_smtpd(credentials: Mapping[str, str] | None = None) -> Iterator[SmtpServer]:
    server = SmtpServer(credentials)
    server.start()
    try:
        yield server
    finally:
        server.stop()
