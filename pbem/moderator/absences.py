"""Absences (AWAY, BACK): who is away, the days a game allows, and an absence starting or ending.

While a player is away, the game's away mode decides their turns: `default` plays the default
orders for them as soon as only away players' orders are awaited (pbem.moderator.play), `wait`
holds the deadline while an away player's orders are awaited (pbem.daemon.deadlines). Orders
the player sends still count either way; only BACK, the absence's day or the game master ends
it. The days taken count against the game's cap; ending early gives the unused days back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta

from pbem.games.base import Event
from pbem.games.event_codec import encode_events
from pbem.moderator.desk import Desk
from pbem.moderator.events import AwayEnd, AwayEnded, AwayStarted
from pbem.moderator.loaded import LoadedGame, encode_state
from pbem.orders.absence import Away
from pbem.orders.parse import OrderLine
from pbem.store import append_history
from pbem.store.tables import HistoryKind, SeatRow

MAX_AWAY_DAYS = 14  # the default cap on a player's days away in one game
AWAY = "away"  # the history's actor for the moves the moderator makes for an away player


def absence_rule(mode: str, max_days: int) -> str:
    """What AWAY does in a game of this away mode and cap, for its HELP."""
    if max_days == 0:
        return "Absences: this game takes no AWAY."
    meanwhile = (
        "your deadlines wait until you are back"
        if mode == "wait"
        else "the moderator plays the default orders for you"
    )
    return (
        f"Absences: while you are away, {meanwhile}; at most {max_days} days in all in this game."
    )


def today(desk: Desk) -> date:
    """Absences run by the UTC day, as the game's clock tells it."""
    return desk.clock().date()


def is_away(seat: SeatRow, on: date) -> bool:
    """Whether the seat's player is away on day `on` (the absence's own day is a day back)."""
    return seat.away_until is not None and seat.away_until > on


def day_words(day: date) -> str:
    """`12 Dec 2026`: with its year, so no letter needs the day it was written to be read."""
    return f"{day.day} {day:%b %Y}"


def days_left(game: LoadedGame, seat: SeatRow, on: date) -> int:
    """The days of absence the seat may still take, counting its current absence's as free."""
    return game.row.max_away_days - seat.away_days + _unused(seat, on)


def away_refusal(game: LoadedGame, seat: int, away: Away, on: date) -> str | None:
    """Why `away` cannot be taken (a day that has passed, more days than the cap leaves)."""
    back = away.until(on)
    row = game.seat(seat)
    if back <= on:
        return f"{day_words(back)} is not after today ({day_words(on)}): give a later day"
    wanted, left = (back - on).days, days_left(game, row, on)
    if wanted > left:
        reading = year_read(away, on)
        until = f"{reading}: away until then" if reading else f"away until {day_words(back)}"
        return (
            f"{until} is {wanted} days, but this game allows {game.row.max_away_days} days away "
            f"in all and you have {left} left: give an earlier day (AWAY {left} days at most)"
        )
    return None


def year_read(away: Away, on: date) -> str | None:
    """The year a date written without one was read in, when it is not this year's: `AWAY 1 Dec`
    on 3 Dec 2026 is 363 days away, and the player should see why. Else None."""
    back = away.until(on)
    if away.days is not None or away.year is not None or back.year == on.year:
        return None
    written = f"{back.day} {back:%b}"
    return (
        f"{written} without a year is the next {written}, {day_words(back)} "
        f"(today is {day_words(on)})"
    )


def go_away(
    desk: Desk,
    game: LoadedGame,
    seat: int,
    away: Away,
    *,
    actor: str,
    inbound_id: int | None,
    written: str | None = None,
) -> list[Event]:
    """The seat's absence starts (or moves to a new day); checked by `away_refusal` first.
    `written`: the line the player wrote, kept as the entry's summary like any order line."""
    on = today(desk)
    back = away.until(on)
    row = game.seat(seat)
    row.away_days += (back - on).days - _unused(row, on)
    row.away_until = back
    desk.session.add(row)
    started = AwayStarted(seat, day_words(back), wait=game.row.away_mode == "wait")
    _record(
        desk,
        game,
        [started],
        actor=actor,
        kind="order",
        summary=written or f"{game.name_of(seat)} away until {back.isoformat()}",
        inbound_id=inbound_id,
    )
    return [started]


@dataclass(frozen=True)
class Absence:
    """What an email's AWAY or BACK did: its events, and notes for the sender's reply alone."""

    events: list[Event] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def away_by_email(
    desk: Desk,
    game: LoadedGame,
    seat: int,
    away: OrderLine | None,
    back: OrderLine | None,
    inbound_id: int | None,
) -> Absence:
    """AWAY starts (or moves) the seat's absence, BACK ends it; BACK wins when both are written.
    An AWAY whose date, written without a year, falls in another year tells which."""
    actor = game.seat(seat).address
    if back is not None:
        events = come_back(
            desk,
            game,
            seat,
            "back",
            actor=actor,
            kind="order",
            inbound_id=inbound_id,
            written=back.text,
        )
        return Absence(events)
    if away is None:
        return Absence()
    assert isinstance(away.order, Away)
    events = go_away(
        desk, game, seat, away.order, actor=actor, inbound_id=inbound_id, written=away.text
    )
    year = year_read(away.order, today(desk))
    return Absence(events, [f"{year}."] if year else [])


def come_back(
    desk: Desk,
    game: LoadedGame,
    seat: int,
    end: AwayEnd,
    *,
    actor: str,
    kind: HistoryKind,
    why: str | None = None,
    inbound_id: int | None = None,
    written: str | None = None,
) -> list[Event]:
    """The seat's absence ends; [] when the seat was not away. The days not taken are given
    back; under `wait`, a deadline held for the seat starts again from now."""
    row = game.seat(seat)
    if row.away_until is None:
        return []
    _end(desk, game, row)
    ended = AwayEnded(seat, end, wait=game.row.away_mode == "wait")
    _record(
        desk,
        game,
        [ended],
        actor=actor,
        kind=kind,
        summary=written or f"{game.name_of(seat)} back ({end})",
        why=why,
        inbound_id=inbound_id,
    )
    return [ended]


def forget_absence(desk: Desk, game: LoadedGame, seat: SeatRow) -> date | None:
    """A seat passing to someone else (a computer player, another person) keeps no absence: it
    was its player's, so the new player is not away, and has the game's days of their own.
    Returns the first day back of the absence that ends so (None: none), for the change to say
    it; a deadline held for it starts again, as when its player comes back."""
    until = seat.away_until
    if until is not None:
        _end(desk, game, seat)
    seat.away_days = 0
    return until


def ended_summary(name: str, until: date | None) -> str:
    """The game master's words (summary, history) for the absence `forget_absence` ended:
    "; Bo's absence (until 2026-12-04) ended"; "" when the seat's player was not away."""
    return f"; {name}'s absence (until {until.isoformat()}) ended" if until else ""


def ended_words(until: date | None) -> str | None:
    """The absence `forget_absence` ended, as its event tells the players ("4 Dec 2026")."""
    return day_words(until) if until else None


def _end(desk: Desk, game: LoadedGame, row: SeatRow) -> None:
    """The seat's absence ends today: the days not taken are given back; under `wait`, a
    deadline held for the seat starts again from now."""
    row.away_days -= _unused(row, today(desk))
    row.away_until = None
    desk.session.add(row)
    hours = game.row.deadline_hours
    if game.row.away_mode == "wait" and hours and row.position in game.engine.awaiting(game.state):
        game.row.deadline_at = desk.clock() + timedelta(hours=hours)
        desk.session.add(game.row)


def absences_over(desk: Desk, game: LoadedGame) -> list[Event]:
    """The absences whose day has come end by themselves."""
    on = today(desk)
    return [
        event
        for seat in game.seats
        if seat.away_until is not None and not is_away(seat, on)
        for event in come_back(desk, game, seat.position, "over", actor=AWAY, kind="system")
    ]


def deadline_waits_for(game: LoadedGame, seat: int) -> bool:
    """Whether the seat's absence starting or ending holds or restarts the deadline that every
    status shows: under `wait`, with a deadline, while the seat's orders are awaited."""
    return (
        game.row.away_mode == "wait"
        and game.row.deadline_hours is not None
        and seat in game.engine.awaiting(game.state)
    )


def held_deadline(game: LoadedGame, viewer: int | None) -> str | None:
    """Under `wait`, what the status says of a deadline held while awaited players are away
    (the time it shows would pass without effect): None when it runs."""
    if game.row.deadline_at is None:
        return None
    held = [
        s.position
        for s in game.seats
        if s.away_until is not None and deadline_waits_for(game, s.position)
    ]
    if not held:
        return None
    who = listed(["you" if seat == viewer else game.name_of(seat) for seat in held])
    verb = "are" if len(held) > 1 or held == [viewer] else "is"
    back = "they are all" if len(held) > 1 else f"{who} {verb}"
    return f"none while {who} {verb} away; it starts again when {back} back"


def listed(words: Sequence[str]) -> str:
    """`a`, `a and b`, `a, b and c`."""
    return " and ".join([", ".join(words[:-1]), words[-1]] if len(words) > 1 else words)


def absences(game: LoadedGame) -> list[tuple[int, str]]:
    """(seat, "12 Dec 2026") for each absence not yet ended, for the status and `pbem show`."""
    return [
        (seat.position, day_words(seat.away_until))
        for seat in game.seats
        if seat.away_until is not None
    ]


def _unused(seat: SeatRow, on: date) -> int:
    """The days of the seat's absence still to come (0 when not away)."""
    return max((seat.away_until - on).days, 0) if seat.away_until is not None else 0


def _record(
    desk: Desk,
    game: LoadedGame,
    events: list[Event],
    *,
    actor: str,
    kind: HistoryKind,
    summary: str,
    why: str | None = None,
    inbound_id: int | None = None,
) -> None:
    append_history(
        desk.session,
        game.id,
        actor=actor,
        kind=kind,
        summary=summary,
        why=why,
        inbound_id=inbound_id,
        state_after=encode_state(game, game.state),
        events=encode_events(events),
    )
