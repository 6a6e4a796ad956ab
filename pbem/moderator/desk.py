"""What one unit of the moderator's work carries: the transaction, settings, outbox and clock."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlmodel import Session

from pbem.moderator.postman import Postman
from pbem.settings import Settings
from pbem.store import sent_to_recently, utc_now


@dataclass
class Desk:
    session: Session
    settings: Settings
    clock: Callable[[], datetime] = field(default=utc_now)
    postman: Postman = field(init=False)

    def __post_init__(self) -> None:
        self.postman = Postman(self.session, self.settings)

    def answers_this_hour(self, address: str, kinds: Sequence[str]) -> int:
        """How many letters of `kinds` went to `address` in the last hour: answers to people the
        moderator does not know are limited by it, so a forged sender cannot aim it at someone."""
        since = self.clock() - timedelta(hours=1)
        return sent_to_recently(self.session, address, kinds, since)
