"""Who held each seat when: a history entry told as it happened, with the players' names of that
time and its actor by the name of the seat they held then, never by address.

An entry's actor is recorded as an address (or `gm`, `deadline`, ...), and only today's seats have
addresses. Walking back from today through the seats' changes of hands tells the earlier ones: a
resignation is the resigning player's own entry; after a `gm replace` or `gm remove` the earlier
holder's address is known from what they did: the seat their own entry acted for first, or the
one seat whose earlier holder is not known yet.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pbem.games.base import Event
from pbem.moderator.events import SeatLeft, SeatMoved
from pbem.moderator.loaded import LoadedGame
from pbem.moderator.telling import name_before
from pbem.store import HistoryRow

# The actors that are no seat's player.
_SERVICES = {
    "gm": "The game master",
    "deadline": "The moderator",
    "mail": "The moderator",
    "away": "The moderator",
    "waiting": "The moderator",
}
# An entry by a seat's earlier holder whose seat cannot be told (its events name no seat whose
# earlier holder is unknown, and more than one such seat is left).
_UNKNOWN = "A former player"


@dataclass(frozen=True)
class Then:
    """One history entry's table: the players' names just after it, and who made it."""

    names: tuple[str, ...]
    actor_name: str  # the actor as called then: "Bo", "The game master", or _UNKNOWN


def tables_then(
    game: LoadedGame, names: Sequence[str], entries: Sequence[tuple[HistoryRow, list[Event]]]
) -> list[Then]:
    """Each entry's table, in the entries' order. `names`: today's, as the reader reads them."""
    now = list(names)
    addresses: list[str | None] = [seat.address.lower() for seat in game.seats]
    found: list[Then] = []
    for entry, events in reversed(entries):
        after = tuple(now)
        actor = entry.actor.lower()
        for event in events:
            if isinstance(event, SeatMoved | SeatLeft):
                # Before this entry the seat was its earlier holder's: a resigning player made
                # the entry themselves; the game master's change leaves the address to be found.
                resigned = isinstance(event, SeatLeft) and not event.removed
                addresses[event.seat] = actor if resigned else None
            name_before(now, event)
        seat = _seat_of(addresses, actor, events)
        name = _SERVICES.get(actor, _UNKNOWN) if seat is None else now[seat]
        found.append(Then(after, name))
    return found[::-1]


def _seat_of(addresses: list[str | None], actor: str, events: Sequence[Event]) -> int | None:
    """The seat `actor` held then; an earlier holder found so is kept in `addresses`."""
    if actor in addresses:
        return addresses.index(actor)
    unknown = [seat for seat, address in enumerate(addresses) if address is None]
    if actor in _SERVICES or not unknown:
        return None
    # A player's own entry tells first what they did with their seat (their hire, their sealed
    # order, their words), whatever it did to the others' seats after.
    seats = (getattr(event, "seat", None) for event in events)
    own = next((seat for seat in seats if isinstance(seat, int)), None)
    if own in unknown:
        seat: int | None = own
    else:
        seat = unknown[0] if len(unknown) == 1 else None
    if seat is not None:
        addresses[seat] = actor
    return seat
