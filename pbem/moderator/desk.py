"""What one unit of the moderator's work carries: the transaction, settings, outbox and clock."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from sqlmodel import Session

from pbem.moderator.postman import Postman
from pbem.settings import Settings
from pbem.store import utc_now


@dataclass
class Desk:
    session: Session
    settings: Settings
    clock: Callable[[], datetime] = field(default=utc_now)
    postman: Postman = field(init=False)

    def __post_init__(self) -> None:
        self.postman = Postman(self.session, self.settings)
