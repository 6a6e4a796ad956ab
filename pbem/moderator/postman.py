"""Writing letters to the outbox, in the same transaction as the change they report."""

from __future__ import annotations

from sqlmodel import Session

from pbem.moderator.compose import Composed, Letter, compose
from pbem.settings import Settings
from pbem.store import queue_outbox

MODERATOR_NAME = "pbem moderator"


class Postman:
    """Composes letters for one transaction and queues them; `sent` holds the letters it queued
    (whom and of what kind)."""

    def __init__(self, session: Session, settings: Settings) -> None:
        self.session = session
        self.settings = settings
        self.sent: list[Letter] = []

    def post(self, letter: Letter, game_id: str | None) -> Composed:
        composed = compose(
            letter, self.settings.address, MODERATOR_NAME, game_id, self.settings.domain
        )
        queue_outbox(
            self.session,
            message_id=composed.message_id,
            to_address=letter.to,
            kind=letter.kind,
            raw=composed.raw,
            game_id=game_id,
        )
        self.sent.append(letter)
        return composed
