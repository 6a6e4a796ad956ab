"""Who sent a seat's emails when, for the transcript: a seat that changed hands (`gm replace`,
or a computer player taking it when its player resigned or was removed) had one address before
the change and another after it.

No table keeps a seat's earlier addresses (the `SeatMoved` event names no address, so that no
player is ever told one), so each holder's address is read from the history entries their
orders made: an entry's actor is the address its email came from. The seat's last holder has
the seat's address today. An earlier holder who never sent an email of their own (every move of
theirs a deadline's default or the game master's order) gets a made-up address at the reserved
`example` domain (RFC 2606): the replay needs one, and none was ever recorded.
"""

from __future__ import annotations

from bisect import bisect_right

from pbem.moderator.loaded import LoadedGame
from pbem.moderator.telling import unmarked
from pbem.store import HistoryRow

# Where the address of an earlier holder no email tells is made up (module docstring).
UNKNOWN_DOMAIN = "unknown-holder.example"


class Senders:
    """Each seat's holders, in the order they held it, as the history is read entry by entry."""

    def __init__(self, game: LoadedGame) -> None:
        self.changes: list[list[int]] = [[] for _ in game.seats]  # entries the seat changed hands
        # Each earlier holder's name; None: the next holder's, unmarked (a computer player took
        # the seat under the name of the one who left, "Bo (computer)").
        self.names: list[list[str | None]] = [[] for _ in game.seats]
        self.today = [(seat.address, game.name_of(seat.position)) for seat in game.seats]
        self.sent: dict[tuple[int, int], str] = {}  # (seat, holder) -> an address they wrote from

    def moved(self, seat: int, seq: int, old_name: str) -> None:
        """Entry `seq` gave the seat to its next holder; `old_name`: the one before."""
        self.changes[seat].append(seq)
        self.names[seat].append(old_name or self.today[seat][1])

    def left(self, seat: int, row: HistoryRow) -> None:
        """The entry passed the seat to a computer player (RESIGN, `gm remove`). The one who left
        had the name the computer player took, unmarked; a resigning player made the entry
        themselves, from their address."""
        holder = self.holder(seat, row.seq)
        self.changes[seat].append(row.seq)
        self.names[seat].append(None)
        if "@" in row.actor:
            self.sent[seat, holder] = row.actor

    def wrote(self, seat: int, row: HistoryRow) -> None:
        """The entry's orders were the seat's; an actor that is an address is who sent them (the
        game master's and the deadline's entries name no address)."""
        if "@" in row.actor:
            self.sent[seat, self.holder(seat, row.seq)] = row.actor

    def holder(self, seat: int, seq: int) -> int:
        """Which of the seat's holders (0: the first) held it at entry `seq`."""
        return bisect_right(self.changes[seat], seq)

    def address(self, seat: int, holder: int) -> str:
        if holder == len(self.changes[seat]):
            return self.today[seat][0]
        return self.sent.get((seat, holder), f"seat{seat + 1}-{holder + 1}@{UNKNOWN_DOMAIN}")

    def name(self, seat: int, holder: int) -> str:
        names = self.names[seat]
        if holder >= len(names):
            return self.today[seat][1]
        return names[holder] or unmarked(self.name(seat, holder + 1))
