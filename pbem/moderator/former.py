"""Mail from a game's former player: an address that held a seat until the seat changed hands
(`gm replace`, `gm remove`, RESIGN). Its old reply address carries a password that is no
longer the seat's, and it is told that it no longer plays, not that it mistyped a password.

No table keeps who held a seat when (the history names no address a seat changed from), so two
records tell it: the outbox shows the address was sent a seat's status by the game, and the last
letter the game sent it as a player (the farewell of `gm replace` and `gm remove`, the answer to
its RESIGN) follows the history entry in which its seat changed hands, in the same transaction.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from sqlmodel import Session, col, func, select

from pbem.games.event_codec import decode_events
from pbem.moderator.events import SeatLeft, SeatMoved
from pbem.store import HistoryRow, OutboxRow, get_game, seat_by_address

Departure = Literal["replaced", "removed", "resigned"]
# The outbox kinds of letters to a seat's holder; a watcher's and a stranger's are not among them.
_PLAYERS_KINDS = ("status", "reply", "gm")
_TOLD = {
    "replaced": "the game master gave your seat to another player on {on}",
    "removed": "the game master removed you from the game on {on}; a computer player plays "
    "your seat",
    "resigned": "you resigned on {on}; a computer player plays your seat",
}


@dataclass(frozen=True)
class Former:
    """How and when the address stopped playing in the game."""

    game_id: str
    how: Departure
    on: str  # "2026-12-03"
    watchable: bool  # the game takes watchers: running (or paused) and not private

    def lines(self, moderator: str) -> list[str]:
        told = _TOLD[self.how].format(on=self.on)
        lines = [
            f"This is the play-by-email moderator. You no longer play in {self.game_id}: {told}.",
            "Mail from you no longer counts as orders in this game, so nothing was done.",
        ]
        if self.watchable:
            lines.append(
                f"To follow the game without playing, write WATCH {self.game_id} to {moderator}."
            )
        return lines


def former_player(session: Session, game_id: str | None, address: str) -> Former | None:
    """How `address` left game `game_id`, or None: it holds a seat there now, never held one,
    or the game is unknown."""
    game = get_game(session, game_id) if game_id else None
    if game is None or seat_by_address(session, game.id, address) is not None:
        return None
    letters = (
        select(func.max(OutboxRow.created_at))
        .where(col(OutboxRow.game_id) == game.id)
        .where(func.lower(OutboxRow.to_address) == address.lower())
    )
    if session.exec(letters.where(col(OutboxRow.kind) == "status")).one() is None:
        return None  # never sent a seat's status: never a player of this game
    last: datetime | None = session.exec(
        letters.where(col(OutboxRow.kind).in_(_PLAYERS_KINDS))
    ).one()
    change = session.exec(
        select(HistoryRow)
        .where(col(HistoryRow.game_id) == game.id)
        .where(col(HistoryRow.at) <= last)
        .where(col(HistoryRow.events).contains("moderator.seat_"))
        .order_by(col(HistoryRow.seq).desc())
        .limit(1)
    ).first()
    events = decode_events(change.events) if change is not None and change.events else []
    event = next((e for e in events if isinstance(e, SeatLeft | SeatMoved)), None)
    if change is None or event is None:
        return None
    how: Departure = (
        "replaced" if isinstance(event, SeatMoved) else "removed" if event.removed else "resigned"
    )
    watchable = not game.private and game.status != "finished"
    return Former(game.id, how, change.at.strftime("%Y-%m-%d"), watchable)
