"""An SMTP server that kills the daemon the moment it has taken an email from it."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from aiosmtpd.smtp import SMTP, Envelope, Session

from tests.support.smtpd import RecordingHandler, SmtpServer


class KillAfterTakingHandler(RecordingHandler):
    """Records the message, then SIGKILLs the victim before it can read the server's 250: the
    email is delivered, and the daemon dies before it could mark it sent. Once."""

    def __init__(self) -> None:
        super().__init__()
        self.victim: Callable[[], int] | None = None
        """Gives the process id to kill, asked when the email comes in."""

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        reply = await super().handle_DATA(server, session, envelope)
        if self.victim is not None:
            os.kill(self.victim(), signal.SIGKILL)
            self.victim = None
        return reply


@contextmanager
def killing_smtpd() -> Iterator[tuple[SmtpServer, KillAfterTakingHandler]]:
    server = SmtpServer()
    handler = KillAfterTakingHandler()
    server.handler = handler
    server.start()
    try:
        yield server, handler
    finally:
        server.stop()
