"""The game master's overrides. Each is recorded in the history (who, when, why) and told to the
players; none is possible by email."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import timedelta
from typing import cast, get_args

from pbem.games.base import Event
from pbem.games.event_codec import encode_events
from pbem.moderator.desk import Desk
from pbem.moderator.events import DeadlineSet, Paused, SeatMoved, StatusResent, Undone
from pbem.moderator.letters import notice_letter, status_letter
from pbem.moderator.loaded import LoadedGame, encode_state, load_game, save_state
from pbem.moderator.news import untold_events
from pbem.moderator.play import carry_out, follow_up, parse_for
from pbem.moderator.seats import resign
from pbem.moderator.start import StartError, check_address
from pbem.moderator.telling import tell_game
from pbem.store import append_history, history_entry, last_history, new_secret
from pbem.store.tables import DeadlinePolicy, GameStatus

GM = "gm"


class GmError(ValueError):
    """An override that cannot be done as asked; the message says why and what would work."""


def _seat_of(game: LoadedGame, address: str) -> int:
    for seat in game.seats:
        if seat.address.lower() == address.lower():
            return seat.position
    players = ", ".join(seat.address for seat in game.seats)
    raise GmError(f"{address} has no seat in {game.id}; the players are {players}")


def _tell(desk: Desk, game: LoadedGame, events: Sequence[Event], why: str | None) -> None:
    """Each player is told the change in their own words (`why` is written for the players)."""
    for seat in game.humans():
        lines = tell_game(game, events, seat.position)
        if not lines:
            continue
        desk.postman.post(
            notice_letter(
                to=seat.address,
                game=game,
                seat=seat.position,
                settings=desk.settings,
                words="The game master changed the game",
                lines=lines,
                why=why,
                kind="gm",
            ),
            game.id,
        )


def _changed(
    desk: Desk, game: LoadedGame, state: object, summary: str, why: str | None, events: list[Event]
) -> list[Event]:
    before = game.engine.progress(game.state)
    save_state(
        desk.session, game, state, actor=GM, kind="gm", summary=summary, why=why, events=events
    )
    _tell(desk, game, events, why)
    return follow_up(desk, game, [], before)


def order(desk: Desk, game_id: str, address: str, text: str, why: str | None) -> list[Event]:
    """Orders entered for a player, as if the player had sent them on their turn."""
    game = load_game(desk.session, game_id)
    seat = _seat_of(game, address)
    parsed = parse_for(game, text)
    if parsed.errors or not parsed.actions:
        problems = "; ".join(str(e) for e in parsed.errors) or "no orders in the text"
        raise GmError(problems)
    if seat not in game.engine.awaiting(game.state):
        raise GmError(f"{address} has no orders to give now")
    before = game.engine.progress(game.state)
    outcome = carry_out(
        desk,
        game,
        seat,
        parsed.actions,
        actor=GM,
        kind="gm",
        summary=f"orders for {game.name_of(seat)}: "
        + " / ".join(line.text for line in parsed.orders),
        why=why,
        stand_in="gm",
    )
    if outcome.refusal is not None:
        raise GmError(str(outcome.refusal))
    _tell(desk, game, outcome.events, why)
    return follow_up(desk, game, list(outcome.events), before)


def undo(desk: Desk, game_id: str, to: int | None, why: str | None) -> int:
    """Restore the state after history entry `to` (default: the one before the last)."""
    game = load_game(desk.session, game_id)
    latest = last_history(desk.session, game_id, 1)
    target = to if to is not None else max(1, latest[-1].seq - 1)
    entry = history_entry(desk.session, game_id, target)
    if entry is None:
        raise GmError(f"{game_id} has no history entry {target} (entries 1-{latest[-1].seq})")
    state = game.engine.load(json.loads(entry.state_after))
    if game.row.status == "finished":
        game.row.status = "running"
    events = [Undone(target)]
    save_state(
        desk.session,
        game,
        state,
        actor=GM,
        kind="gm",
        summary=f"undo to entry {target}",
        why=why,
        events=events,
    )
    _tell(desk, game, events, why)
    # Every seat gets a status, so it tells what happened since the last one, the undo last.
    _resend(desk, game, [seat.position for seat in game.seats], untold_events(desk, game))
    return target


def set_money(desk: Desk, game_id: str, address: str, amount: int, why: str | None) -> None:
    game = load_game(desk.session, game_id)
    seat = _seat_of(game, address)
    if not hasattr(game.engine, "set_money"):
        raise GmError(f"money cannot be set in {game.kind.title}")
    state = game.engine.load(game.engine.dump(game.state))
    events = game.engine.set_money(state, seat, amount)
    _changed(desk, game, state, f"money of {game.name_of(seat)} set", why, events)


def set_value(
    desk: Desk, game_id: str, address: str, production: str, value: int, why: str | None
) -> None:
    game = load_game(desk.session, game_id)
    seat = _seat_of(game, address)
    if not hasattr(game.engine, "set_value"):
        raise GmError(f"{game.kind.title} has no chips to set")
    musical, _, number = production.partition("#")
    state = game.engine.load(game.engine.dump(game.state))
    try:
        events = game.engine.set_value(state, seat, musical, int(number) if number else None, value)
    except ValueError as exc:
        raise GmError(str(exc)) from exc
    _changed(
        desk,
        game,
        state,
        f"value of {game.name_of(seat)}'s {production} set to {value}",
        why,
        events,
    )


def replace(desk: Desk, game_id: str, old: str, new: str, why: str | None) -> None:
    """A new address for a seat, with a new secret so the old address can no longer order."""
    try:
        check_address(new)
    except StartError as exc:
        raise GmError(str(exc)) from exc
    game = load_game(desk.session, game_id)
    seat = game.seat(_seat_of(game, old))
    seat.address = new
    seat.secret = new_secret({s.secret for s in game.seats})
    seat.kind = "human"
    desk.session.add(seat)
    _record(
        desk,
        game,
        f"seat {seat.position + 1} moved from {old} to {new}",
        why,
        SeatMoved(seat.position),
    )
    _resend(desk, game, [seat.position])


def remove(desk: Desk, game_id: str, address: str, why: str | None) -> None:
    game = load_game(desk.session, game_id)
    events = resign(desk, game, _seat_of(game, address), actor=GM, why=why or "removed by the GM")
    _tell(desk, game, events, why)


def pause(desk: Desk, game_id: str, why: str | None, resume_it: bool = False) -> None:
    game = load_game(desk.session, game_id)
    wanted: GameStatus = "running" if resume_it else "paused"
    now = "paused" if resume_it else "running"
    if game.row.status != now:
        raise GmError(f"{game_id} is {game.row.status}, not {now}")
    game.row.status = wanted
    desk.session.add(game.row)
    event = Paused(resumed=resume_it)
    _record(desk, game, "game resumed" if resume_it else "game paused", why, event)
    _tell(desk, game, [event], why)
    if resume_it:
        follow_up(desk, game, [], "")


def deadline(
    desk: Desk, game_id: str, hours: float | None, policy: str | None, why: str | None
) -> None:
    game = load_game(desk.session, game_id)
    game.row.deadline_hours = hours
    game.row.deadline_at = desk.clock() + timedelta(hours=hours) if hours else None
    if policy is not None:
        if policy not in get_args(DeadlinePolicy):
            raise GmError(f"policy must be one of {', '.join(get_args(DeadlinePolicy))}")
        game.row.policy = cast(DeadlinePolicy, policy)
    desk.session.add(game.row)
    _record(
        desk,
        game,
        f"deadline set to {hours} hours, policy {game.row.policy}",
        why,
        DeadlineSet(hours, game.row.policy),
    )


def resend(desk: Desk, game_id: str, address: str | None, why: str | None) -> None:
    game = load_game(desk.session, game_id)
    seats = [_seat_of(game, address)] if address else [s.position for s in game.seats]
    whom = game.name_of(seats[0]) if address else "every player"
    _record(
        desk, game, f"status resent to {whom}", why, StatusResent(seats[0] if address else None)
    )
    _resend(desk, game, seats)


def _resend(
    desk: Desk, game: LoadedGame, seats: Sequence[int], events: Sequence[Event] = ()
) -> None:
    for seat in seats:
        desk.postman.post(status_letter(game, seat, desk.settings, events), game.id)


def _record(desk: Desk, game: LoadedGame, summary: str, why: str | None, event: Event) -> None:
    """An entry for a change outside the game's state: `summary` for the game master, `event`
    for the players."""
    append_history(
        desk.session,
        game.id,
        actor=GM,
        kind="gm",
        summary=summary,
        why=why,
        state_after=encode_state(game, game.state),
        events=encode_events([event]),
    )
