"""An SMTP server that kills the daemon the moment it has taken an email from it."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from aiosmtpd.smtp import SMTP, Envelope, Session

from tests.support.smtpd import RecordingHandler, SmtpServer


class KillAfterTakingHandler(RecordingHandler):
    """Records the message, then SIGKILLs the victims before they can read the server's 250:
    the email is delivered, and the daemon dies before it could mark it sent. Once."""

    def __init__(self) -> None:
        super().__init__()
        self.victims: Callable[[], list[int]] | None = None
        """Gives the ids of the processes to kill (the daemon's), asked when the email comes in."""

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        reply = await super().handle_DATA(server, session, envelope)
        if self.victims is not None:
            for pid in self.victims():
                os.kill(pid, signal.SIGKILL)
            self.victims = None
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
