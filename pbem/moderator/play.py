"""Carrying out orders on a game, and everything that follows from a change: waiting orders,
computer players, status mail and the final result."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from pbem.games.base import Event, Submission
from pbem.games.event_codec import encode_events
from pbem.moderator.absences import AWAY, is_away, today
from pbem.moderator.computers import play_for_computers
from pbem.moderator.desk import Desk
from pbem.moderator.events import (
    GmReason,
    PlayedFor,
    SeatLeft,
    SeatMoved,
    StandIn,
    WaitingOrdersRefused,
)
from pbem.moderator.former import tell_resigned
from pbem.moderator.letters import status_letter
from pbem.moderator.loaded import LoadedGame, encode_state, save_state
from pbem.moderator.news import untold_events
from pbem.moderator.watchers import tell_watchers
from pbem.orders.games import grammar_for
from pbem.orders.grammar import Grammar
from pbem.orders.parse import ParsedOrders, parse_orders
from pbem.store import append_history, set_aside_waiting_orders, waiting_orders
from pbem.store.tables import HistoryKind

# Waiting orders are applied in a loop; a game has far fewer turns than this.
MAX_AUTOMATIC_STEPS = 10_000
# Why early orders still waiting for their turn were not played: newer ones took their place.
REPLACED = "replaced by newer orders for the seat"
# Early orders are their writer's, never the seat's next holder's (a computer player or a person).
LEFT = "the seat passed to another player before its turn"
# The history's actor for early orders the moderator found it could not carry out.
WAITING = "waiting"


def grammar_of(game: LoadedGame) -> Grammar:
    return grammar_for(
        game.row.game, game.row.variant, game.data_file, game.engine.codes(game.state)
    )


def parse_for(game: LoadedGame, text: str) -> ParsedOrders:
    return parse_orders(text, grammar_of(game))


def carry_out(
    desk: Desk,
    game: LoadedGame,
    seat: int,
    actions: Sequence[Any],
    *,
    actor: str,
    summary: str,
    kind: HistoryKind = "order",
    why: str | None = None,
    inbound_id: int | None = None,
    stand_in: StandIn | None = None,
) -> Submission[Any]:
    """Submit one email's actions for `seat`; when accepted, save and record them.

    `stand_in` says why the moderator orders for the seat (its events then tell it so)."""
    outcome = game.engine.submit(game.state, seat, list(actions))
    if outcome.accepted:
        if stand_in is not None:
            outcome.events = [PlayedFor(seat, stand_in, tuple(outcome.events))]
        save_state(
            desk.session,
            game,
            outcome.state,
            actor=actor,
            kind=kind,
            summary=summary,
            why=why,
            inbound_id=inbound_id,
            events=outcome.events,
        )
    return outcome


def follow_up(
    desk: Desk,
    game: LoadedGame,
    events: list[Event],
    progress_before: str,
    answered: int | None = None,
    everyone: bool = False,
    headline: str | None = None,
    why: str | None = None,
    said: Sequence[Event] = (),
) -> list[Event]:
    """After a change: apply the early orders whose turn came, then tell the players.

    Every seat gets a status email when the game moved on (a turn ended, a phase resolved),
    telling everything that happened since the last such email (`news.py`), and the deadline
    starts again; once the game is over, everyone gets the final result. The seat `answered`
    (whose email made the change) gets none: its reply carries the new status, so it gets one
    email, and the newest one it has is the one to answer. Computer players get theirs as mail too
    (`bots.py`). Returns what the seats were told: the news when the game moved on, else this
    change's events (those of the waiting orders included). `everyone`: every seat is sent a
    status even though the game did not move on (an absence held or restarted the deadline).
    `headline` heads the statuses' subjects ("Game resumed"), and `why` is the game master's
    reason for the change, told after the news. `said`: talk of this change from a seat that
    then changed hands in it (SAY beside RESIGN), which the news leaves out as delivered when
    it was said (`news._still_news`): it was not yet, so it is told here, before the change.
    At the end, the players who resigned are sent the final result too (`former.py`).
    """
    events = [*events, *_play_on(desk, game)]
    over = game.engine.is_over(game.state)
    moved = game.engine.progress(game.state) != progress_before or over
    if not moved and not everyone:
        return events
    if moved and game.row.deadline_hours and not over:
        game.row.deadline_at = desk.clock() + timedelta(hours=game.row.deadline_hours)
        desk.session.add(game.row)
    news = _with_talk(untold_events(desk, game), said)
    told = [*news, *([GmReason(why)] if why else [])]
    for seat in game.seats:
        if seat.position != answered:
            letter = status_letter(game, seat.position, desk.settings, told, headline)
            desk.postman.post(letter, game.id)
    tell_watchers(desk, game, told, headline)
    if over and game.engine.progress(game.state) != progress_before:  # it ended just now
        tell_resigned(desk, game, told)
    return news


def _with_talk(news: list[Event], said: Sequence[Event]) -> list[Event]:
    """`news` with the talk `said` it lacks, just before its speaker's seat changed hands, so
    it is told under the name of then."""
    missing = [event for event in said if event not in news]
    if not missing:
        return news
    speakers = {getattr(event, "seat", None) for event in missing}
    changes = [
        index
        for index, event in enumerate(news)
        if isinstance(event, SeatLeft | SeatMoved) and event.seat in speakers
    ]
    at = changes[-1] if changes else len(news)
    return [*news[:at], *missing, *news[at:]]


def _play_on(desk: Desk, game: LoadedGame) -> list[Event]:
    """The moves that need no email: early orders (turn-based games) as their turns come, the
    default orders of away players, and the computer players' orders once only theirs are
    awaited, until none has a move to make."""
    events: list[Event] = []
    for _ in range(MAX_AUTOMATIC_STEPS):
        if game.row.status != "running" or game.engine.is_over(game.state):
            return events
        step = _apply_waiting_orders(desk, game)
        if step is None:
            step = _play_for_away(desk, game)
        if step is None:
            step = play_for_computers(desk, game)
        if step is None:
            return events
        events.extend(step)
    raise RuntimeError(f"game {game.id}: waiting orders did not stop")


def _apply_waiting_orders(desk: Desk, game: LoadedGame) -> list[Event] | None:
    """The waiting early order of the seat whose turn it is (turn-based games), if any."""
    awaiting = game.engine.awaiting(game.state)
    if not game.kind.turn_based or not awaiting:
        return None
    return _apply_waiting_order(desk, game, awaiting[0])


def _play_for_away(desk: Desk, game: LoadedGame) -> list[Event] | None:
    """Under the away mode `default`, the default orders of the away players once only theirs
    are awaited: at once on a Show Manager turn, once the others have bid in a Big Time! phase
    (so an away player's own orders, if they send some, still count). None while someone
    present is awaited, and while every person in the game is away: the game then waits
    rather than play itself out."""
    awaiting = game.engine.awaiting(game.state)
    on = today(desk)
    if game.row.away_mode != "default" or not awaiting:
        return None
    if not all(is_away(game.seat(seat), on) for seat in awaiting):
        return None
    if all(is_away(seat, on) for seat in game.humans()):
        return None
    events: list[Event] = []
    for seat in awaiting:
        back = game.seat(seat).away_until
        assert back is not None  # is_away
        outcome = carry_out(
            desk,
            game,
            seat,
            game.engine.default_actions(game.state, seat),
            actor=AWAY,
            kind="system",
            summary=f"{game.name_of(seat)} is away: default orders",
            why=f"away until {back.isoformat()}",
            stand_in="away",
        )
        if not outcome.accepted:
            raise RuntimeError(f"default orders refused in {game.id}: {outcome.refusal}")
        events.extend(outcome.events)
    return events


def replace_waiting_orders(
    desk: Desk, game: LoadedGame, seat: int, reason: str = REPLACED
) -> list[str]:
    """A seat's newest orders are its orders: the early ones still waiting for its turn (a
    turn-based game's) give way and are never played. Their lines, one string a set."""
    if not game.kind.turn_based:
        return []
    rows = set_aside_waiting_orders(desk.session, game.id, reason, position=seat)
    return [one_line(row.lines) for row in rows]


def set_aside(orders: list[str]) -> str:
    """For the game master's history summary: the early orders a change set aside, if any."""
    return f"; early orders set aside ({' / '.join(orders)})" if orders else ""


def one_line(lines: str) -> str:
    """Kept order lines as the history and the letters write an email's orders: `A / B`."""
    return " / ".join(line.strip() for line in lines.strip().splitlines())


def _apply_waiting_order(desk: Desk, game: LoadedGame, seat: int) -> list[Event] | None:
    """The seat's first early order, now that its turn has come; None when it has none."""
    waiting = waiting_orders(desk.session, game.id, seat)
    if not waiting:
        return None
    order = waiting[0]
    address = game.seat(seat).address
    # The lines parsed when they were queued, against the same grammar: only legality can fail.
    by_gm = order.inbound_id is None  # entered by the game master, not sent by email
    outcome = carry_out(
        desk,
        game,
        seat,
        parse_for(game, order.lines).actions,
        actor="gm" if by_gm else address,
        kind="gm" if by_gm else "order",
        summary=(f"orders for {game.name_of(seat)}: " if by_gm else "") + one_line(order.lines),
        inbound_id=order.inbound_id,
    )
    order.status = "applied" if outcome.accepted else "refused"
    order.reason = str(outcome.refusal or "")
    desk.session.add(order)
    if outcome.accepted:
        return outcome.events
    # Recorded, so the status this turn sends the seat tells it (`untold_events`).
    refused = WaitingOrdersRefused(seat, one_line(order.lines), order.reason, to=(seat,))
    append_history(
        desk.session,
        game.id,
        actor=WAITING,
        kind="system",
        # The reason in the summary, the game master's alone: it may name the seat's hand, and
        # an entry's `why` is shown to every reader of HISTORY (re-check: it leaked so).
        summary=(
            f"{game.name_of(seat)}'s early orders refused: {one_line(order.lines)} ({order.reason})"
        ),
        state_after=encode_state(game, game.state),
        events=encode_events([refused]),
    )
    return [refused]
