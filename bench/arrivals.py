"""What the benchmarks' SMTP server notes of each message it accepts: when, and to whom."""

from __future__ import annotations

import time
from dataclasses import dataclass
from email.parser import BytesHeaderParser

from aiosmtpd.smtp import SMTP, Envelope, Session

from tests.support.smtpd import RecordingHandler


@dataclass(frozen=True)
class Arrival:
    recipients: tuple[str, ...]
    auto_submitted: str
    at: float
    """time.monotonic() when the server accepted the message"""


class TimedHandler(RecordingHandler):
    """Records, besides each message, when it was accepted: read once here, so that a benchmark
    waiting for a reply need not parse every message again on each look."""

    def __init__(self) -> None:
        super().__init__()
        self.arrivals: list[Arrival] = []

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        answer = await super().handle_DATA(server, session, envelope)
        headers = BytesHeaderParser().parsebytes(envelope.original_content or b"")
        self.arrivals.append(
            Arrival(
                tuple(envelope.rcpt_tos), str(headers["Auto-Submitted"] or ""), time.monotonic()
            )
        )
        return answer
