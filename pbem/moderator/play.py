"""Carrying out orders on a game, and everything that follows from a change: waiting orders,
computer players, status mail and the final result."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from pbem.games.base import Event, Submission
from pbem.moderator.desk import Desk
from pbem.moderator.letters import notice_letter, status_letter
from pbem.moderator.loaded import LoadedGame, save_state
from pbem.orders.games import grammar_for
from pbem.orders.grammar import Grammar
from pbem.orders.parse import ParsedOrders, parse_orders
from pbem.store import waiting_orders
from pbem.store.tables import HistoryKind

# Bots and waiting orders act in a loop; a game needs far fewer steps than this between emails.
MAX_AUTOMATIC_STEPS = 10_000


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
) -> Submission[Any]:
    """Submit one email's actions for `seat`; when accepted, save and record them."""
    outcome = game.engine.submit(game.state, seat, list(actions))
    if outcome.accepted:
        save_state(
            desk.session,
            game,
            outcome.state,
            actor=actor,
            kind=kind,
            summary=summary,
            why=why,
            inbound_id=inbound_id,
        )
    return outcome


def follow_up(
    desk: Desk, game: LoadedGame, events: list[Event], progress_before: str
) -> list[Event]:
    """After a change: let waiting orders and computer players act, then tell the players.

    Every human seat gets a status email when the game moved on (a turn ended, a phase resolved),
    and the deadline starts again; once the game is over, everyone gets the final result.
    Returns all the events, those of the automatic seats included.
    """
    events = [*events, *_run_automatic_seats(desk, game)]
    if game.engine.is_over(game.state):
        tell_result(desk, game, events)
    elif game.engine.progress(game.state) != progress_before:
        if game.row.deadline_hours:
            game.row.deadline_at = desk.clock() + timedelta(hours=game.row.deadline_hours)
            desk.session.add(game.row)
        for seat in game.humans():
            desk.postman.post(status_letter(game, seat.position, desk.settings, events), game.id)
    return events


def tell_result(desk: Desk, game: LoadedGame, events: Sequence[Event]) -> None:
    outcome = game.engine.outcome(game.state)
    lines = [
        f"{rank}. {game.name_of(standing.seat)}: {standing.score} points, money {standing.money}"
        for rank, standing in enumerate(outcome.standings, start=1)
    ]
    winner = (
        f"The winner is {game.name_of(outcome.winner)}."
        if outcome.winner is not None
        else "The game ends in a tie: there is no single winner."
    )
    final = [*events, Event(winner), *(Event(line) for line in lines)]
    for seat in game.humans():
        desk.postman.post(status_letter(game, seat.position, desk.settings, final), game.id)


def _run_automatic_seats(desk: Desk, game: LoadedGame) -> list[Event]:
    """Waiting early orders (turn-based games) and bots act until a person must answer."""
    events: list[Event] = []
    for _ in range(MAX_AUTOMATIC_STEPS):
        if game.row.status != "running" or game.engine.is_over(game.state):
            return events
        step = _next_automatic_step(desk, game)
        if step is None:
            return events
        events.extend(step)
    raise RuntimeError(f"game {game.id}: automatic seats did not stop")


def _next_automatic_step(desk: Desk, game: LoadedGame) -> list[Event] | None:
    awaiting = game.engine.awaiting(game.state)
    for seat in awaiting:
        if game.kind.turn_based:
            queued = _apply_waiting_order(desk, game, seat)
            if queued is not None:
                return queued
        if game.seat(seat).kind == "bot":
            actions = game.engine.default_actions(game.state, seat)
            outcome = carry_out(
                desk,
                game,
                seat,
                actions,
                actor=f"bot:{game.name_of(seat)}",
                summary=" / ".join(map(repr, actions)),
                kind="system",
            )
            if not outcome.accepted:
                raise RuntimeError(f"bot order refused in {game.id}: {outcome.refusal}")
            return outcome.events
    return None


def _apply_waiting_order(desk: Desk, game: LoadedGame, seat: int) -> list[Event] | None:
    """The seat's first early order, now that its turn has come; None when it has none."""
    waiting = waiting_orders(desk.session, game.id, seat)
    if not waiting:
        return None
    order = waiting[0]
    address = game.seat(seat).address
    # The lines parsed when they were queued, against the same grammar: only legality can fail.
    outcome = carry_out(
        desk,
        game,
        seat,
        parse_for(game, order.lines).actions,
        actor=address,
        summary=order.lines.strip(),
        inbound_id=order.inbound_id,
    )
    order.status = "applied" if outcome.accepted else "refused"
    order.reason = str(outcome.refusal or "")
    desk.session.add(order)
    if outcome.accepted:
        return outcome.events
    desk.postman.post(
        notice_letter(
            to=address,
            game=game,
            seat=seat,
            settings=desk.settings,
            words="Your waiting orders could not be carried out",
            lines=[
                "Your turn has come, but your earlier orders cannot be carried out now:",
                order.reason,
                "Nothing changed. The turn waits for your new orders.",
            ],
        ),
        game.id,
    )
    return None
