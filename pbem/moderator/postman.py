"""Writing letters to the outbox, in the same transaction as the change they report."""

from __future__ import annotations

from email.message import EmailMessage

from sqlmodel import Session

from pbem.moderator.compose import Letter, compose
from pbem.settings import Settings
from pbem.store import add_outbox

MODERATOR_NAME = "pbem moderator"


class Postman:
    """Composes letters for one transaction and queues them; `sent` is what it queued, and
    `letters` the letters they came from (whom and of what kind)."""

    def __init__(self, session: Session, settings: Settings) -> None:
        self.session = session
        self.settings = settings
        self.sent: list[EmailMessage] = []
        self.letters: list[Letter] = []

    def post(self, letter: Letter, game_id: str | None) -> EmailMessage:
        message = compose(
            letter, self.settings.address, MODERATOR_NAME, game_id, self.settings.domain
        )
        add_outbox(
            self.session,
            message_id=str(message["Message-ID"]),
            to_address=letter.to,
            kind=letter.kind,
            raw=message.as_bytes(),
            game_id=game_id,
        )
        self.sent.append(message)
        self.letters.append(letter)
        return message
