"""Deadlines: what happens to a running game whose players have not all answered in time.

`wait` tells the game master once per deadline and waits; `default` and `skip` play the engine's
default orders for every seat still awaited (the engines' defaults are the do-nothing moves, such
as BID 0, so skipping a seat and defaulting it are the same thing there), then set the next
deadline.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from sqlalchemy import Engine

from pbem.games.base import Event
from pbem.moderator.desk import Desk
from pbem.moderator.letters import notice_letter
from pbem.moderator.loaded import LoadedGame, load_game
from pbem.moderator.play import carry_out, follow_up
from pbem.settings import Settings
from pbem.store import (
    games_past_deadline,
    get_mail_state,
    lock_game,
    session_scope,
    set_mail_state,
)

log = logging.getLogger("pbem.daemon")


def run_deadlines(
    engine: Engine, settings: Settings, clock: Callable[[], datetime], gm_address: str | None
) -> int:
    """Apply the policy of every game past its deadline, one transaction each; how many acted."""
    with session_scope(engine) as session:
        due = [row.id for row in games_past_deadline(session, clock())]
    acted = 0
    for game_id in due:
        with session_scope(engine) as session:
            row = lock_game(session, game_id)
            if row.status != "running" or row.deadline_at is None or row.deadline_at > clock():
                continue
            desk = Desk(session, settings, clock)
            game = load_game(session, game_id)
            if row.policy == "wait":
                acted += _tell_gm_once(desk, game, gm_address)
            else:
                _play_defaults(desk, game)
                acted += 1
    return acted


def _play_defaults(desk: Desk, game: LoadedGame) -> None:
    before = game.engine.progress(game.state)
    events: list[Event] = []
    for seat in game.engine.awaiting(game.state):
        actions = game.engine.default_actions(game.state, seat)
        outcome = carry_out(
            desk,
            game,
            seat,
            actions,
            actor="deadline",
            kind="system",
            summary=" / ".join(map(repr, actions)),
            why=f"deadline passed ({game.row.policy}): {game.name_of(seat)} had not answered",
        )
        if not outcome.accepted:
            raise RuntimeError(f"default orders refused in {game.id}: {outcome.refusal}")
        events.extend(outcome.events)
    follow_up(desk, game, events, before)
    hours = game.row.deadline_hours
    game.row.deadline_at = desk.clock() + timedelta(hours=hours) if hours else None
    desk.session.add(game.row)
    log.info("deadline in %s: default orders played (%s)", game.id, game.row.policy)


def _tell_gm_once(desk: Desk, game: LoadedGame, gm_address: str | None) -> int:
    """1 when the game master was told now, 0 when told before about this deadline."""
    assert game.row.deadline_at is not None
    key = f"deadline-told:{game.id}:{game.row.deadline_at.isoformat()}"
    if get_mail_state(desk.session, key) is not None:
        return 0
    set_mail_state(desk.session, key, desk.clock().isoformat())
    waiting = ", ".join(game.name_of(seat) for seat in game.engine.awaiting(game.state))
    log.warning("deadline passed in %s; waiting for %s (policy wait)", game.id, waiting)
    if gm_address:
        desk.postman.post(
            notice_letter(
                to=gm_address,
                game=game,
                seat=None,
                settings=desk.settings,
                words="A deadline has passed",
                kind="notice",
                lines=[
                    f"The deadline of {game.id} has passed; still waiting for {waiting}.",
                    "The policy is wait: nothing happens until they answer or you act "
                    "(pbem gm deadline, pbem gm pause ...).",
                ],
            ),
            game.id,
        )
    return 1
