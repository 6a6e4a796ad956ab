"""What the players have not yet been told in a status email to everyone.

Every history entry keeps its events. When the game moves on and every seat is sent a status,
the status tells the events of all entries since the last such status, so a public action is
told to everyone whichever email it came in (a Show Manager loan or refresh sent alone, before
the hire that ends the turn). The last entry told is kept in the mail state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from pbem.games.base import Event
from pbem.games.event_codec import decode_events
from pbem.moderator import events as _moderator_events  # noqa: F401 - registers their kinds
from pbem.moderator.desk import Desk
from pbem.moderator.events import (
    TALK,
    AwayEnded,
    AwayStarted,
    SeatLeft,
    SeatMoved,
    StatusResent,
)
from pbem.moderator.loaded import LoadedGame
from pbem.store import HistoryRow, get_mail_state, history_since, last_history, set_mail_state

# The most history entries a resent status recaps: a player's own latest one is usually among
# the last few (a Show Manager round of six seats is six entries and some talk).
RECAP_ENTRIES = 50


def untold_events(desk: Desk, game: LoadedGame, undone_after: int | None = None) -> list[Event]:
    """The events of every entry since the last status to everyone; they count as told now.

    `undone_after`: the latest entry is an undo back to that entry. What the entries between did
    no longer stands ("your order is on file" for a bid the undo took back), so it is not told;
    their talk was said all the same, and a seat that changed hands is not given back."""
    key = f"told:{game.id}"
    told = get_mail_state(desk.session, key)
    entries = history_since(desk.session, game.id, int(told) if told else 0)
    if not entries:
        return []
    set_mail_state(desk.session, key, str(entries[-1].seq))
    return _news_of(entries, undone_after)


def events_since_own(desk: Desk, game: LoadedGame, seat: int) -> list[Event]:
    """What happened since `seat`'s player last wrote (their latest entry, at most the last
    `RECAP_ENTRIES`): the news of a status resent to them, which the status they lost told, and
    what came after it (play-testing: a resend told none of it). Nothing counts as told by it."""
    address = game.seat(seat).address.lower()
    entries = last_history(desk.session, game.id, RECAP_ENTRIES)
    own = max((i for i, entry in enumerate(entries) if entry.actor.lower() == address), default=-1)
    return _news_of(entries[own + 1 :])


def told_once(events: Sequence[Event], seat: int | None, seats: int) -> list[Event]:
    """`events` as a letter to `seat` (of `seats`) tells them: its holder's own takeover (the
    seat's latest change of hands, if a `SeatMoved`) was told in their welcome, so it is kept
    from them (play-testing: their next status told it again). Kept in the list, it still marks
    what came before it as the earlier holder's (`telling.tell_as_then`).

    So is the earlier holder's absence before it, when the takeover ended it: the welcome said
    so, and "Bo is away until 7 Dec; the moderator plays for Bo meanwhile" read as the
    newcomer's own seat being played for them (play-testing; the more so when the newcomer
    kept the seat's name). An absence over before the takeover is told as it was."""
    changes = [
        index
        for index, event in enumerate(events)
        if isinstance(event, SeatLeft | SeatMoved) and event.seat == seat
    ]
    if not changes:
        return list(events)
    takeover, moved = changes[-1], events[changes[-1]]
    if not isinstance(moved, SeatMoved):
        return list(events)
    ended_absence = moved.away_until is not None
    others = tuple(other for other in range(seats) if other != seat)
    return [
        replace(event, to=others)
        if index == takeover or (ended_absence and index < takeover and _absence_of(event, seat))
        else event
        for index, event in enumerate(events)
    ]


def _absence_of(event: Event, seat: int | None) -> bool:
    return isinstance(event, AwayStarted | AwayEnded) and event.seat == seat


def _news_of(entries: Sequence[HistoryRow], undone_after: int | None = None) -> list[Event]:
    """The events of `entries`, oldest first, as a status tells them (`untold_events`)."""
    news: list[list[Event]] = []
    changed: set[int] = set()  # seats that pass to someone else in a later entry
    filed: set[tuple[object, ...]] = set()  # what a later entry put on file again
    for entry in reversed(entries):
        events = decode_events(entry.events) if entry.events else []
        if undone_after is not None and undone_after < entry.seq < entries[-1].seq:
            events = [e for e in events if isinstance(e, (*TALK, SeatLeft, SeatMoved))]
        # An order sent again replaces the one before: told both, the player would read two
        # orders on file for one phase (play-testing).
        events = [e for e in events if e.files is None or e.files not in filed]
        filed |= {e.files for e in events if e.files is not None}
        news.append([kept for event in events if (kept := _still_news(event, changed))])
        changed |= {e.seat for e in events if isinstance(e, SeatLeft | SeatMoved)}
    return [event for events in reversed(news) for event in events]


def _still_news(event: Event, changed: set[int]) -> Event | None:
    """The event as the next status tells it, or None. A resend is told in the status it resends:
    no news afterwards. What only a seat's earlier holder was told (their talk, their sealed
    order) is theirs: the seat's next holder is not told it."""
    if isinstance(event, StatusResent):
        return None
    if not changed:
        return event
    # Talk was delivered when it was said; told again now, it would name the seat by its new
    # holder ("Dee says to you only: ..." for what Bo said).
    if isinstance(event, TALK) and not changed.isdisjoint({event.seat, *(event.to or ())}):
        return None
    if event.to is None or changed.isdisjoint(event.to):
        return event
    readers = tuple(seat for seat in event.to if seat not in changed)
    return replace(event, to=readers) if readers else None
