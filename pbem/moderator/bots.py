"""Computer players answer their mail through the same path as people.

A status email or reply addressed to a seat a computer player holds is not sent over SMTP: it is
delivered here, the bot writes its orders as an email replying to it (the seat's plus-address,
the same subject), and that email is handled by `handle_inbound` like any other. Delivery and
answer share one transaction, so a crash between them has no half-done effect, and the answer's
Message-ID is derived from the delivered email's, so handling it twice has no second effect.

The bot decides from the seat's view alone, at the seat's level (`pbem.games.levels`).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage

from sqlalchemy import Engine
from sqlmodel import Session

from pbem.games.rng import Rng
from pbem.mail.transport import Sender
from pbem.moderator.addresses import BOT_DOMAIN
from pbem.moderator.computers import computer_orders
from pbem.moderator.desk import Desk
from pbem.moderator.inbound import handle_inbound
from pbem.moderator.loaded import load_game
from pbem.orders.format import order_text
from pbem.orders.incoming import read_email
from pbem.settings import Settings
from pbem.store import (
    OutboxRow,
    bot_mail,
    get_mail_state,
    last_history,
    session_scope,
    set_mail_state,
)

# A whole game of bots is answered in one call; this bounds a bug that would loop for ever.
MAX_DELIVERIES = 200_000


@dataclass(frozen=True)
class BotAnswers:
    answered: int  # emails the computer players answered
    finished: bool  # True: no mail was left for them; False: time ran out first


def answer_bot_mail(
    engine: Engine,
    settings: Settings,
    clock: Callable[[], datetime],
    archive: Sender | None = None,
    seconds: float | None = None,
) -> BotAnswers:
    """Deliver pending email to computer players and handle their answers: all of it, or what
    `seconds` on the clock allow (no email is begun after that, but one always is, so every
    call moves the games on).

    The daemon bounds each cycle's share: a game of strong computer players takes a minute or
    more, and the mail of other games must not wait for it. `archive` (the local Maildir
    transport, in the daemon) gets a copy of each delivered email, so a game of bots can be read
    like any other.
    """
    until = None if seconds is None else time.monotonic() + seconds
    answered = 0
    for delivered in range(MAX_DELIVERIES):
        if delivered and until is not None and time.monotonic() >= until:
            return BotAnswers(answered, finished=False)
        with session_scope(engine) as session:
            rows = bot_mail(session, limit=1)
            if not rows:
                return BotAnswers(answered, finished=True)
            row = rows[0]
            # The answer is worked out before the delivery is written: a strong player thinks
            # for a second or two, and until the first write the database is not locked.
            answer = _answer(session, row)
            row.status, row.sent_at, row.attempts = "sent", clock(), row.attempts + 1
            session.add(row)
            if answer is not None:
                handle_inbound(Desk(session, settings, clock), answer, f"bot:{row.message_id}")
                answered += 1
        if archive is not None:
            archive.send(row.raw, [row.to_address], settings.address)
    raise RuntimeError("computer players did not stop answering")


def _answer(session: Session, row: OutboxRow) -> bytes | None:
    """The bot's email answering `row`, or None when it has nothing to order now."""
    assert row.game_id is not None
    game = load_game(session, row.game_id)
    seat = next(s for s in game.seats if s.address == row.to_address and s.kind == "bot")
    letter = read_email(row.raw)
    if (
        game.row.status != "running"
        or seat.position not in game.engine.awaiting(game.state)
        or game.kind.stale(game.state, letter.subject) is not None
    ):
        return None
    # A bot whose email was refused (no new history entry since it answered) falls back to the
    # engine's default orders once, so a bot can never keep the game waiting or loop.
    seq = last_history(session, game.id, 1)[-1].seq
    tried = f"bot-tried:{game.id}:{seat.position}:{seq}"
    attempt = get_mail_state(session, tried)
    if attempt == "default":
        return None
    rng = Rng.from_seed(int.from_bytes(_digest(row.message_id)[:8], "big"))
    if attempt is None:
        actions = computer_orders(game, seat.position, rng)
    else:
        actions = game.engine.default_actions(game.state, seat.position)
    set_mail_state(session, tried, "default" if attempt else "bot")
    message = EmailMessage()
    message["From"] = seat.address
    message["To"] = letter.reply_to or row.to_address
    message["Subject"] = f"Re: {letter.subject}"
    message["Message-ID"] = f"<bot-{_digest(row.message_id).hex()[:24]}@{BOT_DOMAIN}>"
    message["In-Reply-To"] = row.message_id
    message.set_content(order_text(actions))
    return message.as_bytes()


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.encode()).digest()
