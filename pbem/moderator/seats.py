"""Changes to who sits in a seat (resigning, removal) and the history a seat may read."""

from __future__ import annotations

from pbem.games.base import Event
from pbem.moderator.addresses import bot_address
from pbem.moderator.desk import Desk
from pbem.moderator.letters import HistoryLine, status_letter
from pbem.moderator.loaded import LoadedGame, encode_state
from pbem.store import append_history, last_history, new_secret

HISTORY_LENGTH = 200


def resign(desk: Desk, game: LoadedGame, seat: int, *, actor: str, why: str) -> list[Event]:
    """The seat passes to a computer player (RULINGS.md), so the game still ends.

    The seat gets the bot's address, so mail to the person who left is no longer the seat's,
    and the bot is sent the seat's status, which it answers when the seat has orders to give.
    """
    name = game.name_of(seat)
    by_gm = actor.startswith("gm")
    left = "was removed by the game master" if by_gm else "resigned"
    row = game.seat(seat)
    row.kind, row.bot_name, row.address = "bot", name, bot_address(f"{name}-{seat + 1}")
    # A new secret too: the person who left must no longer order for the seat.
    row.secret = new_secret({other.secret for other in game.seats})
    row.name = f"{name} (computer)"
    desk.session.add(row)
    append_history(
        desk.session,
        game.id,
        actor=actor,
        kind="gm" if by_gm else "order",
        summary=f"{name} {left}; a computer player takes the seat",
        why=why,
        state_after=encode_state(game, game.state),
    )
    events = [Event(f"{name} has left the game; a computer player takes over the seat.")]
    desk.postman.post(status_letter(game, seat, desk.settings, events), game.id)
    return events


def history_lines(desk: Desk, game: LoadedGame, seat: int) -> list[HistoryLine]:
    """The game's history as the seat may see it: who did what, in order."""
    return [
        HistoryLine(
            entry.seq,
            entry.at.strftime("%Y-%m-%d %H:%M"),
            _public_actor(game, entry.actor),
            _public_summary(game, seat, entry.actor, entry.kind, entry.summary),
            entry.why,
        )
        for entry in last_history(desk.session, game.id, HISTORY_LENGTH)
    ]


def _public_actor(game: LoadedGame, actor: str) -> str:
    """Players are named, never shown by address."""
    for seat in game.seats:
        if seat.address == actor:
            return game.name_of(seat.position)
    return actor


def _public_summary(game: LoadedGame, seat: int, actor: str, kind: str, summary: str) -> str:
    """Simultaneous orders stay sealed: another player's order lines would show a bid."""
    own = actor == game.seat(seat).address
    if game.kind.turn_based or own or kind != "order":
        return summary
    return "sent orders for the phase"
