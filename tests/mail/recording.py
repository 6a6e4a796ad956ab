"""Helpers for the mail tests: player emails, and store callbacks that record what they get."""

from __future__ import annotations

import email
from collections.abc import Callable
from dataclasses import dataclass, field

from pbem.mail.handover import HandOver
from pbem.mail.imap import ImapIntake
from pbem.mail.timing import Backoff

# Reconnecting at once keeps the fault tests fast; the backoff itself is tested on its own.
QUICK_RECONNECT = Backoff(first=0.05, cap=0.2)

Outcome = bool | Exception


def player_email(number: int, body: str = "STAGE 1") -> bytes:
    return (
        f"From: alice@example.org\r\nTo: moderator@example.org\r\n"
        f"Subject: [sm-1] orders {number}\r\nMessage-ID: <order-{number}@example.org>\r\n"
        f"\r\n{body}\r\n"
    ).encode()


def message_id(raw: bytes) -> str:
    return str(email.message_from_bytes(raw)["Message-ID"])


@dataclass
class RecordingStore:
    """A store callback like the daemon's: idempotent by Message-ID, scripted to fail on demand.

    `script` answers the first calls in order (False: declined; an exception: raised), then it
    commits. `during_store` runs inside each call, before it answers."""

    script: list[Outcome] = field(default_factory=list)
    during_store: Callable[[bytes, str], None] | None = None
    offered: list[str] = field(default_factory=list)
    committed: dict[str, bytes] = field(default_factory=dict)
    repeats: int = 0
    poisoned: list[tuple[bytes, str, str]] = field(default_factory=list)

    def store(self, raw: bytes, source: str) -> bool:
        self.offered.append(source)
        if self.during_store is not None:
            self.during_store(raw, source)
        outcome = self.script.pop(0) if self.script else True
        if isinstance(outcome, Exception):
            raise outcome
        if outcome:
            if message_id(raw) in self.committed:
                self.repeats += 1
            self.committed.setdefault(message_id(raw), raw)
        return outcome

    def on_poison(self, raw: bytes, source: str, error: str) -> None:
        self.poisoned.append((raw, source, error))

    def handover(self, retry_delay: float = 0.0) -> HandOver:
        return HandOver(self.store, self.on_poison, retry_delay=retry_delay)


IntakeFactory = Callable[..., ImapIntake]
