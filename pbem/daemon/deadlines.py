"""Deadlines: reminders before them, and what happens to a running game whose players have not
all answered in time.

A reminder goes to each seat still awaited once a quarter of the time is left (at most a day
before). At the deadline, `wait` tells the game master once and waits; `default` plays the
engine's default orders for every seat still awaited; `skip` lets the game go on without them
(Show Manager: the turn passes; The Big Time!: no bid and the default pick). Then the next
deadline is set.

Absences (AWAY) end here when their day comes. Under the away mode `wait`, a deadline passes
without effect while an away player's orders are awaited: it is held until they are back, and
then starts again (pbem.moderator.absences). Away players get no reminders.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from sqlalchemy import Engine

from pbem.daemon.alarms import MAX_REMINDER_LEAD, reminder_time
from pbem.games.base import Event
from pbem.moderator.absences import absences_over, deadline_waits_for, is_away, today
from pbem.moderator.desk import Desk
from pbem.moderator.events import AwayEnded, PlayedFor, Reminder
from pbem.moderator.letters import notice_letter, status_letter
from pbem.moderator.loaded import LoadedGame, load_game, loaded_game, save_state
from pbem.moderator.play import carry_out, follow_up
from pbem.settings import Settings
from pbem.store import (
    games_past_deadline,
    games_with_absences_over,
    get_mail_state,
    lock_game,
    seats_of,
    session_scope,
    set_mail_state,
)

log = logging.getLogger("pbem.daemon")


def run_deadlines(
    engine: Engine, settings: Settings, clock: Callable[[], datetime], gm_address: str | None
) -> int:
    """Apply the policy of every game past its deadline, one transaction each; how many acted.

    First the absences whose day has come end, so a deadline held for them runs again."""
    end_absences(engine, settings, clock)
    with session_scope(engine) as session:
        due = [row.id for row in games_past_deadline(session, clock())]
    acted = 0
    for game_id in due:
        with session_scope(engine) as session:
            row = lock_game(session, game_id)
            if row.status != "running" or row.deadline_at is None or row.deadline_at > clock():
                continue
            desk = Desk(session, settings, clock)
            game = loaded_game(row, seats_of(session, game_id))  # locked just above
            if _held_for_away(desk, game):
                continue
            if row.policy == "wait":
                acted += _tell_gm_once(desk, game, gm_address)
            else:
                _act_for_missing(desk, game)
                acted += 1
    return acted


def end_absences(engine: Engine, settings: Settings, clock: Callable[[], datetime]) -> int:
    """End the absences whose day has come, one game a transaction; how many ended. Each player
    back is sent a status telling so; the others read it in their next one, unless the
    deadline starts again (`wait`): then everyone is sent one at once."""
    with session_scope(engine) as session:
        games = games_with_absences_over(session, clock().date())
    ended = 0
    for game_id in games:
        with session_scope(engine) as session:
            desk = Desk(session, settings, clock)
            game = load_game(session, game_id)
            if game.row.status != "running":
                continue
            before = game.engine.progress(game.state)
            over = [event for event in absences_over(desk, game) if isinstance(event, AwayEnded)]
            # A deadline that starts again is news for everyone: each is sent a status, which
            # tells the absence's end too. Else only the player back is.
            everyone = any(deadline_waits_for(game, event.seat) for event in over)
            for event in over if not everyone else []:
                seat = game.seat(event.seat)
                if seat.kind == "human":
                    desk.postman.post(
                        status_letter(game, seat.position, desk.settings, [event]), game.id
                    )
            ended += len(over)
            follow_up(desk, game, [], before, everyone=everyone)
    return ended


def _held_for_away(desk: Desk, game: LoadedGame) -> bool:
    """Under the away mode `wait`: whether an away player's orders are awaited."""
    on = today(desk)
    return game.row.away_mode == "wait" and any(
        is_away(game.seat(seat), on) for seat in game.engine.awaiting(game.state)
    )


def _act_for_missing(desk: Desk, game: LoadedGame) -> None:
    """The policy's orders for every seat still awaited, then the next deadline."""
    before = game.engine.progress(game.state)
    events: list[Event] = []
    why = f"deadline passed ({game.row.policy})"
    for seat in game.engine.awaiting(game.state):
        summary = f"{game.name_of(seat)} had not answered: {game.row.policy}"
        if game.row.policy == "skip":
            state = game.engine.load(game.engine.dump(game.state))
            skipped = [PlayedFor(seat, "skip", tuple(game.engine.skip(state, seat)))]
            save_state(
                desk.session,
                game,
                state,
                actor="deadline",
                kind="system",
                summary=summary,
                why=why,
                events=skipped,
            )
            events.extend(skipped)
            continue
        outcome = carry_out(
            desk,
            game,
            seat,
            game.engine.default_actions(game.state, seat),
            actor="deadline",
            kind="system",
            summary=summary,
            why=why,
            stand_in="default",
        )
        if not outcome.accepted:
            raise RuntimeError(f"default orders refused in {game.id}: {outcome.refusal}")
        events.extend(outcome.events)
    follow_up(desk, game, events, before)
    hours = game.row.deadline_hours
    game.row.deadline_at = desk.clock() + timedelta(hours=hours) if hours else None
    desk.session.add(game.row)
    log.info("deadline in %s: %s", game.id, game.row.policy)


def run_reminders(engine: Engine, settings: Settings, clock: Callable[[], datetime]) -> int:
    """Remind the seats still awaited when a quarter of their time is left; how many reminded."""
    now = clock()
    with session_scope(engine) as session:
        # Games "past their deadline" a day from now: every game a reminder may be due for.
        soon = [
            (row.id, row.deadline_at)
            for row in games_past_deadline(session, now + MAX_REMINDER_LEAD)
            if row.deadline_at is not None
            and row.deadline_hours
            and reminder_time(row.deadline_at, row.deadline_hours) <= now < row.deadline_at
            and get_mail_state(session, _reminded(row.id, row.deadline_at)) is None
        ]
    reminded = 0
    for game_id, due in soon:
        with session_scope(engine) as session:
            game = load_game(session, game_id)
            if game.row.deadline_at != due or game.row.status != "running":
                continue  # the game moved on meanwhile
            set_mail_state(session, _reminded(game_id, due), now.isoformat())
            desk = Desk(session, settings, clock)
            reminder = Reminder(f"{due:%Y-%m-%d %H:%M}")
            for seat in game.engine.awaiting(game.state):
                if is_away(game.seat(seat), now.date()):
                    continue
                desk.postman.post(
                    status_letter(game, seat, settings, [reminder], "Reminder"), game.id
                )
                reminded += 1
    return reminded


def _reminded(game_id: str, due: datetime) -> str:
    return f"reminded:{game_id}:{due.isoformat()}"


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
