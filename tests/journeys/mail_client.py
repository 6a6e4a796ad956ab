"""Players who read their mail and answer it the way mail clients make people do.

A player keeps the emails the moderator sent them (as the SMTP server received them) and, when the
newest one asks for their move, presses reply on it: `Re: ` before its subject (once, as clients
do), In-Reply-To and References, the orders on top and the email quoted under an `On ... wrote:`
header; or, as some mobile clients do, the whole email pasted under the orders with no quote
header and no `>`. What to order is chosen from the game (a computer player's choice for the seat),
since these tests are about the mail around the orders, not the play.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import make_msgid

from sqlalchemy import Engine

from pbem.games.rng import Rng
from pbem.moderator.loaded import load_game
from pbem.orders.format import order_text
from pbem.store import session_scope
from tests.support.smtpd import ReceivedMail

YOUR_MOVE = "It is your move."
_RE = re.compile(r"^re:", re.IGNORECASE)


@dataclass(frozen=True)
class Received:
    """One email of the moderator as its reader sees it."""

    subject: str
    message_id: str
    references: str
    reply_to: str
    text: str
    html: str
    headers: str

    @classmethod
    def of(cls, mail: ReceivedMail) -> Received:
        message = BytesParser(policy=policy.default).parsebytes(mail.raw)
        assert isinstance(message, EmailMessage)
        text_part = message.get_body(("plain",))
        html_part = message.get_body(("html",))
        assert text_part is not None and html_part is not None
        return cls(
            subject=str(message["Subject"]),
            message_id=str(message["Message-ID"]),
            references=str(message.get("References", "")),
            reply_to=str(message["Reply-To"] or ""),
            text=str(text_part.get_content()),
            html=str(html_part.get_content()),
            headers="\n".join(f"{name}: {value}" for name, value in message.items()),
        )

    @property
    def asks_for_orders(self) -> bool:
        return YOUR_MOVE in self.text


@dataclass
class Player:
    """One seat's person: their address and name, and how their mail client quotes."""

    address: str
    name: str
    seat: int
    pastes: bool = False
    inbox: list[Received] = field(default_factory=list)
    answered: set[str] = field(default_factory=set)

    def receive(self, mail: ReceivedMail) -> None:
        self.inbox.append(Received.of(mail))

    @property
    def newest(self) -> Received | None:
        return self.inbox[-1] if self.inbox else None

    @property
    def all_mail(self) -> str:
        """Every email this person got, subject, text and HTML, for looking a word up."""
        return "\n".join(f"{m.subject}\n{m.text}\n{m.html}" for m in self.inbox)

    def reply(self, engine: Engine, game_id: str, rng: Rng) -> bytes | None:
        """The reply to the newest email, when it asks for this player's move and is unanswered."""
        newest = self.newest
        if newest is None or newest.message_id in self.answered or not newest.asks_for_orders:
            return None
        self.answered.add(newest.message_id)
        with session_scope(engine) as session:
            game = load_game(session, game_id)
            orders = order_text(game.engine.bot_actions(game.state, self.seat, rng))
        return self.write(newest, orders)

    def write(self, answered: Received, body: str) -> bytes:
        message = EmailMessage()
        message["From"] = f"{self.name} <{self.address}>"
        message["To"] = answered.reply_to
        subject = answered.subject
        message["Subject"] = subject if _RE.match(subject) else f"Re: {subject}"
        message["Message-ID"] = make_msgid(domain="players.test")
        message["In-Reply-To"] = answered.message_id
        message["References"] = f"{answered.references} {answered.message_id}".strip()
        if self.pastes:
            message.set_content(f"{body}\n\n{answered.text}")
        else:
            quoted = "\n".join(f"> {line}".rstrip() for line in answered.text.splitlines())
            header = "On Tue, 1 Dec 2026 at 17:02, pbem moderator <pbem@example.org> wrote:"
            message.set_content(f"{body}\n\n{header}\n{quoted}\n")
        return message.as_bytes()


@dataclass
class Watcher:
    """Someone who follows a game without a seat: they write WATCH to the moderator's bare
    address, then read what comes."""

    address: str
    inbox: list[Received] = field(default_factory=list)

    def receive(self, mail: ReceivedMail) -> None:
        self.inbox.append(Received.of(mail))

    def ask(self, moderator: str, line: str) -> bytes:
        message = EmailMessage()
        message["From"] = self.address
        message["To"] = moderator
        message["Subject"] = "Watching your game"
        message["Message-ID"] = make_msgid(domain="watchers.test")
        message.set_content(f"Hello,\n\n{line}\n\nThanks!\n")
        return message.as_bytes()
