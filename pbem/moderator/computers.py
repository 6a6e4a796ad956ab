"""Computer players who move at once, in the transaction of the change that awaits them alone.

Left to answer their mail (`bots.py`), they answered a moment after the people were sent a
status that said the game waited for them ("Waiting for orders from: Robby (computer)"), and a
second status followed as soon as they had (play-testing). So once only computer players are
awaited (a Show Manager turn of theirs, a Big Time! phase the people have bid in), they decide
here, from their seat's view alone as by mail, and the people are sent one status, the newest.
A game of computer players alone (`pbem demo`) still plays by mail, one letter at a time.
"""

from __future__ import annotations

import hashlib
from typing import Any

from pbem.games.base import Event
from pbem.games.levels import CARETAKER_LEVEL, computer_player
from pbem.games.rng import Rng
from pbem.moderator.desk import Desk
from pbem.moderator.loaded import LoadedGame, save_state
from pbem.orders.format import order_text
from pbem.store import last_history


def play_for_computers(desk: Desk, game: LoadedGame) -> list[Event] | None:
    """Each awaited computer player's orders, when only computer players are awaited and a
    person plays in the game; None otherwise. Orders the rules refuse give way to the seat's
    default orders, as a refused emailed answer does."""
    awaiting = game.engine.awaiting(game.state)
    computers = {seat.position for seat in game.seats if seat.kind == "bot"}
    if not awaiting or not set(awaiting) <= computers or not game.humans():
        return None
    events: list[Event] = []
    for seat in awaiting:
        row = game.seat(seat)
        # Random as by mail, and the same on a second try of the same moment: drawn from the
        # game, the seat and the latest history entry.
        seq = last_history(desk.session, game.id, 1)[-1].seq
        digest = hashlib.sha256(f"{game.id}:{seat}:{seq}".encode()).digest()
        actions = computer_orders(game, seat, Rng.from_seed(int.from_bytes(digest[:8], "big")))
        outcome = game.engine.submit(game.state, seat, actions)
        if not outcome.accepted:
            actions = game.engine.default_actions(game.state, seat)
            outcome = game.engine.submit(game.state, seat, actions)
        if outcome.state is None:
            raise RuntimeError(f"{game.id}: the default orders of seat {seat} were refused")
        save_state(
            desk.session,
            game,
            outcome.state,
            actor=row.address,
            kind="order",
            summary=order_text(actions),
            events=outcome.events,
        )
        events.extend(outcome.events)
    return events


def computer_orders(game: LoadedGame, seat: int, rng: Rng) -> list[Any]:
    """What the seat's computer player orders now, at its level, from the seat's view alone."""
    level = game.seat(seat).bot_level or CARETAKER_LEVEL
    player = computer_player(game.row.game, level, game.state.data)
    return list(player(game.engine.view(game.state, seat), rng))
