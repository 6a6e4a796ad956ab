"""One inbound email, one transaction: deduplicate, authenticate, parse, carry out, reply.

Mailman 3's shape: the message is stored first, and the reply says what was carried out
(Results), what was not (Problems) and what was not an order (Ignored). A rejected email changes
nothing in the game. Nothing here acknowledges anything on a mail server: the caller does that
after the transaction commits.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import timedelta
from email.message import Message
from typing import Any

from sqlalchemy import func
from sqlmodel import col, select

from pbem.games.base import Event
from pbem.moderator.addresses import game_in_subject, seat_key_in
from pbem.moderator.desk import Desk
from pbem.moderator.letters import notice_letter, reply_letter, reply_subject
from pbem.moderator.loaded import LoadedGame, load_game
from pbem.moderator.loops import machine_reason
from pbem.moderator.play import carry_out, follow_up, parse_for
from pbem.moderator.seats import history_lines, resign
from pbem.moderator.undeliverable import record_bounces
from pbem.orders.grammar import Command, Password
from pbem.orders.help import help_text
from pbem.orders.incoming import IncomingEmail, parse_message, read_message
from pbem.store import (
    GameRow,
    InboundRow,
    OutboxRow,
    QueuedOrderRow,
    get_game,
    message_key,
    record_inbound,
    seat_by_secret,
)
from pbem.store.tables import InboundStatus

STRANGER_REPLIES_PER_HOUR = 3
_PASSWORD = re.compile(r"^\s*password[\s:]+(\S+)", re.IGNORECASE | re.MULTILINE)


@dataclass(frozen=True)
class InboundResult:
    status: InboundStatus | str  # "duplicate" when the message was handled before
    reason: str
    game_id: str | None = None


def handle_inbound(desk: Desk, raw: bytes, source: str) -> InboundResult:
    """Handle one received email inside the desk's transaction; a duplicate has no effect."""
    message = parse_message(raw)
    email = read_message(message)
    row = record_inbound(
        desk.session, message_key=message_key(email.message_id, raw), raw=raw, source=source
    )
    if row is None:
        return InboundResult("duplicate", "this message was handled before")
    status, reason, game_id = _handle(desk, row, email, message)
    if status == "ignored" and (bounced := record_bounces(desk, raw)):
        reason = f"bounce for {', '.join(bounced)}"
    row.status, row.reason, row.game_id = status, reason, game_id
    desk.session.add(row)
    return InboundResult(status, reason, game_id)


def _handle(
    desk: Desk, row: InboundRow, email: IncomingEmail, message: Message
) -> tuple[InboundStatus, str, str | None]:
    machine = machine_reason(message, desk.settings.address)
    if machine is not None or email.sender is None:
        return "ignored", machine or "no sender address", None
    login = _authenticate(desk, email)
    if login.game_row is None or login.seat is None:
        _answer_stranger(desk, email, login.named_game)
        return "rejected", login.reason, None
    game_row, seat = login.game_row, login.seat
    game = load_game(desk.session, game_row.id)
    copy_to = [game.seat(seat).address]
    if email.sender.lower() != game.seat(seat).address.lower():
        copy_to.insert(0, email.sender)
    status, reason = _orders(desk, game, seat, email, row, copy_to)
    return status, reason, game.id


@dataclass(frozen=True)
class _Login:
    """Whom an email speaks for: a game and seat, or why not. `named_game` is the game an email
    that failed named with a secret (plus-address or PASSWORD), so the sender can be told the
    secret is wrong; whether that game exists is never told."""

    game_row: GameRow | None = None
    seat: int | None = None
    named_game: str | None = None
    reason: str = "not authenticated"


def _authenticate(desk: Desk, email: IncomingEmail) -> _Login:
    """The game and seat the email's secret names: the plus-address, else the game in the
    subject (or the text) and a PASSWORD line."""
    key = seat_key_in(desk.settings.address, list(email.recipients))
    if key is not None:
        game_id, secret = key.game_id, key.secret
    else:
        named = game_in_subject(email.subject) or game_in_subject(email.text)
        password = _PASSWORD.search(email.text)
        if named is None or password is None:
            return _Login(reason="names no game" if named is None else "no password")
        game_id, secret = named, password[1].lower()
    game_row = get_game(desk.session, game_id)
    seat = seat_by_secret(desk.session, game_id, secret) if game_row else None
    if game_row is None or seat is None:
        return _Login(named_game=game_id, reason="wrong password")
    return _Login(game_row, seat.position)


def _answer_stranger(desk: Desk, email: IncomingEmail, named_game: str | None) -> None:
    """A polite word to mail that could not be matched to a seat, at most a few an hour per
    sender: a wrong password gets its own, which tells nothing of the game it named."""
    assert email.sender is not None
    since = desk.clock() - timedelta(hours=1)
    recent = desk.session.exec(
        select(func.count())
        .select_from(OutboxRow)
        .where(col(OutboxRow.to_address) == email.sender)
        .where(col(OutboxRow.kind) == "stranger")
        .where(col(OutboxRow.created_at) >= since)
    ).one()
    if recent >= STRANGER_REPLIES_PER_HOUR:
        return
    if named_game is not None:
        lines = [
            f"This is the play-by-email moderator. Your email names game {named_game}, but its "
            "password (in the reply address or on the PASSWORD line) is not the password of a "
            "seat in it, so nothing was done.",
            "Reply to the latest email of your game as it came, or copy the game and the "
            "password exactly as the footer of that email shows them: "
            f"[{named_game}] in the subject and a line PASSWORD <your password>.",
        ]
    else:
        lines = [
            "This is the play-by-email moderator. Your email could not be matched to a game "
            "and a seat, so nothing was done.",
            "To send orders, reply to the latest email of your game: its reply address carries "
            "your game and your password. If your mail client drops it, write the game in the "
            "subject, e.g. [sm-12], and your password on a line of its own: PASSWORD k7q2m. "
            "The footer of every email of your game shows both.",
        ]
    letter = notice_letter(
        to=email.sender,
        game=None,
        seat=None,
        settings=desk.settings,
        words=reply_subject(email.subject) if email.subject else "Your email to the moderator",
        kind="stranger",
        lines=lines,
        in_reply_to=email.message_id,
    )
    desk.postman.post(letter, None)


def _orders(
    desk: Desk,
    game: LoadedGame,
    seat: int,
    email: IncomingEmail,
    row: InboundRow,
    copy_to: list[str],
) -> tuple[InboundStatus, str]:
    parsed = parse_for(game, email.text)
    ignored = [line.text for line in parsed.ignored]
    order_lines = [line for line in parsed.orders if not isinstance(line.order, Command | Password)]
    commands = {order.name for order in parsed.commands if isinstance(order, Command)}
    written = [line.text for line in parsed.orders if not isinstance(line.order, Password)]

    def reply(verdict: str, events: Sequence[Event] = (), **details: Any) -> None:
        # Rendered once: the copy to the seat's own address differs only in its recipient.
        letter = reply_letter(
            to=copy_to[0],
            game=game,
            seat=seat,
            settings=desk.settings,
            about=email.subject or "your orders",
            verdict=verdict,
            ignored=ignored,
            accepted=list(dict.fromkeys(written)),
            events=events,
            in_reply_to=email.message_id,
            **details,
        )
        for address in copy_to:
            desk.postman.post(replace(letter, to=address), game.id)

    if not parsed.has_orders:
        notes = ["Your email held no orders."]
        reply("rejected", notes=notes, help_text=_help(game), show_status=True)
        return "rejected", "no orders"
    if parsed.errors:
        problems = [str(error) for error in parsed.errors]
        reply("rejected", problems=problems, show_status=True)
        return "rejected", "; ".join(problems)
    verdict: InboundStatus = "accepted"
    events: list[Event] = []
    before = game.engine.progress(game.state)
    if order_lines:
        refused = _refusal_before_orders(game, seat, email)
        if refused is not None:
            reply("rejected", problems=[refused], show_status=True)
            return "rejected", refused
        if game.kind.turn_based and seat not in game.engine.awaiting(game.state):
            assert row.id is not None  # flushed by record_inbound
            desk.session.add(
                QueuedOrderRow(
                    game_id=game.id,
                    position=seat,
                    inbound_id=row.id,
                    lines="\n".join(dict.fromkeys(line.text for line in order_lines)),
                )
            )
            verdict = "queued"
        else:
            outcome = carry_out(
                desk,
                game,
                seat,
                [line.order for line in order_lines],
                actor=game.seat(seat).address,
                summary=" / ".join(dict.fromkeys(line.text for line in order_lines)),
                inbound_id=row.id,
            )
            if outcome.refusal is not None:
                line = order_lines[outcome.refused_index or 0]
                problem = f'line {line.number} "{line.text}": {outcome.refusal}'
                reply("rejected", problems=[problem], show_status=True)
                return "rejected", problem
            events = follow_up(desk, game, list(outcome.events), before, answered=seat)
    if "RESIGN" in commands:
        events += resign(desk, game, seat, actor=game.seat(seat).address, why="resigned by email")
    # When the game moved on, the other seats were sent a status email; this seat's is the reply.
    moved_on = game.engine.progress(game.state) != before
    reply(
        verdict,
        events,
        show_status="STATUS" in commands or game.row.status == "running" or moved_on,
        help_text=_help(game) if "HELP" in commands else None,
        history=history_lines(desk, game, seat) if "HISTORY" in commands else (),
    )
    return verdict, "ok"


def _refusal_before_orders(game: LoadedGame, seat: int, email: IncomingEmail) -> str | None:
    """Why orders cannot be taken at all now: the game is not running, or the email is stale."""
    if game.row.status == "paused":
        return "the game is paused by the game master; orders are not taken until it resumes"
    if game.row.status == "finished":
        return "the game is over; no more orders are taken"
    return game.kind.stale(game.state, email.subject)


def _help(game: LoadedGame) -> str:
    return help_text(game.row.game, game.row.variant, game.data_file)
