"""Why an email's orders are refused, told so the player can mend the email in one go: the
game's state (paused, over), a stale phase, an absence the game does not allow, and the rules'
refusal told with the line it is about."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pbem.games.base import Submission
from pbem.moderator.absences import away_refusal, today
from pbem.moderator.desk import Desk
from pbem.moderator.loaded import LoadedGame
from pbem.orders.absence import Away
from pbem.orders.headers import first_header
from pbem.orders.incoming import IncomingEmail, parse_message
from pbem.orders.mime import body_text
from pbem.orders.parse import LineError, OrderLine
from pbem.store.operations import game_email


def judged_anyway(
    game: LoadedGame, seat: int, order_lines: Sequence[OrderLine], errors: Sequence[LineError]
) -> str | None:
    """What the rules say of the orders that read, in an email refused for something else, so
    that one more email can mend it all. Past a line that does not read nothing is judged: a
    later line may lean on it (a loan pays for a staging). Nor is a refusal of the email as a
    whole told then ("no BID", when the BID is the line that did not read)."""
    first_unread = min((error.number for error in errors), default=None)
    judged = [line for line in order_lines if first_unread is None or line.number < first_unread]
    if not judged:
        return None
    trial = game.engine.submit(game.state, seat, [line.order for line in judged])
    if trial.refusal is None or (first_unread is not None and trial.refused_index is None):
        return None
    return refused_line(judged, trial)


def refused_line(order_lines: Sequence[OrderLine], outcome: Submission[Any]) -> str:
    """The rules' refusal, told with the line it is about; alone when it is about the email as
    a whole (a line it lacks: play-testing found "needs a BID line" pinned on line 1, which was
    right)."""
    if outcome.refused_index is None:
        return str(outcome.refusal)
    line = order_lines[outcome.refused_index]
    return f'line {line.number} "{line.text}": {outcome.refusal}'


def refusal_before_commands(
    desk: Desk,
    game: LoadedGame,
    seat: int,
    email: IncomingEmail,
    away: OrderLine | None,
    has_orders: bool,
) -> str | None:
    """Why the email's orders or AWAY cannot be taken: the game's state, a stale email, an
    absence the game does not allow. Checked before anything changes, so nothing does."""
    if has_orders and (refused := refusal_before_orders(desk, game, email)) is not None:
        return refused
    if away is None:
        return None
    if game.row.status == "finished":
        return "the game is over; there is no need to write AWAY"
    assert isinstance(away.order, Away)
    return away_refusal(game, seat, away.order, today(desk))


def refusal_before_orders(desk: Desk, game: LoadedGame, email: IncomingEmail) -> str | None:
    """Why orders cannot be taken at all now: the game is not running, or the email is stale."""
    if game.row.status == "paused":
        return (
            "the game is paused until the game master resumes it: no orders are taken "
            "meanwhile; send yours again once you are told it has resumed"
        )
    if game.row.status == "finished":
        return "the game is over; no more orders are taken"
    return stale_phase(desk, game, email)


def stale_phase(desk: Desk, game: LoadedGame, email: IncomingEmail) -> str | None:
    """Why the email answers a phase already resolved: the phase its subject names, or, where the
    player's mail client put none there (`Re: my bids`), the one the moderator's email it
    replies to named. A phase's codes (A1, H2) mean other acts in the next one."""
    subject = email.subject
    if not game.kind.turn_based and not game.kind.names_phase(subject):
        answered = game_email(desk.session, game.id, email.in_reply_to)
        if answered is not None:
            subject = first_header(parse_message(answered), "Subject") or subject
    return game.kind.stale(game.state, subject)


def outdated_line(
    desk: Desk, game: LoadedGame, email: IncomingEmail, order_lines: Sequence[OrderLine]
) -> str | None:
    """Why an order of an email answering an older letter cannot stand, read against what that
    letter showed (Show Manager: a HIRE by slot whose card has changed since)."""

    def answered() -> str:
        raw = game_email(desk.session, game.id, email.in_reply_to)
        return body_text(parse_message(raw)) if raw is not None else ""

    outdated = game.kind.outdated(game.state, answered, [line.order for line in order_lines])
    return refused_line(order_lines, Submission(None, [], *outdated)) if outdated else None
