"""Changes to who sits in a seat (resigning, removal, a new address) and the HISTORY reply."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.games.base import Event
from pbem.moderator.addresses import bot_address
from pbem.moderator.desk import Desk
from pbem.moderator.letters import notice_letter, status_letter
from pbem.moderator.loaded import LoadedGame, encode_state
from pbem.store import append_history, last_history

HISTORY_LENGTH = 200


def resign(desk: Desk, game: LoadedGame, seat: int, *, actor: str, why: str) -> list[Event]:
    """The seat passes to a computer player (RULINGS.md), so the game still ends.

    The seat gets the bot's address, so mail to the person who left is no longer the seat's,
    and the bot is sent the seat's status, which it answers when the seat has orders to give.
    """
    name = game.name_of(seat)
    row = game.seat(seat)
    row.kind, row.bot_name, row.address = "bot", name, bot_address(f"{name}-{seat + 1}")
    row.name = f"{name} (computer)"
    desk.session.add(row)
    append_history(
        desk.session,
        game.id,
        actor=actor,
        kind="gm" if actor.startswith("gm") else "order",
        summary=f"{name} resigned; a computer player takes the seat",
        why=why,
        state_after=encode_state(game, game.state),
    )
    events = [Event(f"{name} has left the game; a computer player takes over the seat.")]
    desk.postman.post(status_letter(game, seat, desk.settings, events), game.id)
    return events


def send_history(
    desk: Desk, game: LoadedGame, seat: int, to: Sequence[str], in_reply_to: str | None
) -> None:
    """The game's history as the seat may see it: who did what, in order."""
    entries = [
        {
            "seq": entry.seq,
            "at": entry.at.strftime("%Y-%m-%d %H:%M"),
            "actor": _public_actor(game, entry.actor),
            "summary": _public_summary(game, seat, entry.actor, entry.kind, entry.summary),
            "why": entry.why,
        }
        for entry in last_history(desk.session, game.id, HISTORY_LENGTH)
    ]
    for address in to:
        desk.postman.post(
            notice_letter(
                to=address,
                game=game,
                seat=seat,
                settings=desk.settings,
                words="History",
                lines=[f"The last {len(entries)} entries of the game's history:"],
                entries=entries,
                kind="reply",
                in_reply_to=in_reply_to,
            ),
            game.id,
        )


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
