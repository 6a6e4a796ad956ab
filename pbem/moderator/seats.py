"""Changes to who sits in a seat (resigning, removal) and the history a seat may read."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace

from pbem.games.base import Event
from pbem.games.event_codec import EventDecodeError, decode_events, encode_events
from pbem.moderator.absences import ended_summary, ended_words, forget_absence
from pbem.moderator.addresses import bot_address
from pbem.moderator.desk import Desk
from pbem.moderator.events import SeatLeft, SeatMoved, Undone
from pbem.moderator.holders import tables_then
from pbem.moderator.letters import History, HistoryLine, status_letter
from pbem.moderator.loaded import LoadedGame, encode_state
from pbem.moderator.play import LEFT, follow_up, replace_waiting_orders, set_aside
from pbem.moderator.telling import Teller, computer_name, scene_of
from pbem.store import HistoryRow, append_history, last_history, new_secret

log = logging.getLogger("pbem.moderator")

HISTORY_LENGTH = 200
# A finished game's result stands, as for `gm remove` (`gm._in_play`): its seats stay whose they
# were, and the players' final result is not sent again under a resignation's headline.
RESIGN_OVER = "the game is over, so there is no seat to leave: its final result stands"


def resign(desk: Desk, game: LoadedGame, seat: int, *, actor: str, why: str | None) -> list[Event]:
    """The seat passes to a computer player (RULINGS.md), so the game still ends.

    The seat gets the bot's address, so mail to the person who left is no longer the seat's.
    Nobody is written to here: the caller tells everyone (`tell_change`), the person who left
    in words of their own.
    """
    name = game.name_of(seat)
    by_gm = actor.startswith("gm")
    left = "was removed by the game master" if by_gm else "resigned"
    row = game.seat(seat)
    row.kind, row.bot_name, row.address = "bot", name, bot_address(f"{name}-{seat + 1}")
    # A new secret too: the person who left must no longer order for the seat.
    row.secret = new_secret({other.secret for other in game.seats})
    row.name = computer_name(name)
    # A computer player plays its own turns; the absence ended, and everyone reads so.
    away = forget_absence(desk, game, row)
    desk.session.add(row)
    dropped = replace_waiting_orders(desk, game, seat, LEFT)
    events: list[Event] = [SeatLeft(seat, removed=by_gm, away_until=ended_words(away))]
    append_history(
        desk.session,
        game.id,
        actor=actor,
        kind="gm" if by_gm else "order",
        summary=f"{name} {left}; a computer player takes the seat"
        + set_aside(dropped)
        + ended_summary(name, away),
        why=why,
        state_after=encode_state(game, game.state),
        events=encode_events(events),
    )
    return events


def resign_by_email(
    desk: Desk,
    game: LoadedGame,
    seat: int,
    before: str,
    said: Sequence[Event],
) -> list[Event]:
    """RESIGN, after what the rest of its email did as the seat's (`before`: the game's progress
    before the email). Everyone else is told at once, as for `gm replace` (play-testing: the
    others got a talk notice and heard of it only in their next turn's status), the talk
    `said` in the email in the same letter. What the person who left may be told: the news up
    to their leaving, not the computer player's moves after it (its seat's, no longer theirs).
    """
    name = game.name_of(seat)
    left = resign(desk, game, seat, actor=game.seat(seat).address, why="resigned by email")
    news = tell_change(desk, game, seat, left, before, said=said, headline=f"{name} left the game")
    changes = [i for i, event in enumerate(news) if _changed_hands([event], seat)]
    gone = changes[-1] if changes else len(news) - 1
    return news[: gone + 1]


def tell_change(
    desk: Desk,
    game: LoadedGame,
    seat: int,
    events: Sequence[Event],
    before: str,
    *,
    said: Sequence[Event] = (),
    headline: str | None = None,
    why: str | None = None,
) -> list[Event]:
    """Everyone told at once that `seat` changed hands (RESIGN, `gm remove`, `gm replace`): a
    status to every other seat and the public one to every watcher, with all not yet told,
    `headline` heading their subjects; one email each, with the board (play-testing: a notice
    headed "Your turn" that showed nothing to play from). A computer player that took the
    seat gets its status too, which tells it nothing of its seat's earlier holder leaving (that
    was the leaver's news, not the computer's); a person who took it gets their welcome from
    the caller. The news told, as `play.follow_up` returns it."""
    news = follow_up(
        desk,
        game,
        list(events),
        before,
        answered=seat,
        everyone=True,
        headline=headline,
        why=why,
        said=said,
    )
    if game.seat(seat).kind == "bot":
        desk.postman.post(status_letter(game, seat, desk.settings, []), game.id)
    return news


def history_lines(desk: Desk, game: LoadedGame, seat: int | None) -> History:
    """The game's history as the seat may see it, told from each entry's events: players by
    name ("You" for the reader), never by address; the seed and others' sealed orders never.
    An entry's summary (order lines, the game master's words) is for the game master only,
    except the reader's own order lines. Talk the reader was not told (others' private talk)
    leaves no line at all: not even that it was sent. What happened before the reader took the
    seat (`gm replace`) is told as a watcher reads it: the earlier holder's hand, money and
    private talk are theirs, not the seat's. To a watcher (`seat` None) every entry is told so."""
    scene = scene_of(game)
    # One more than is told: whether there was one says if the history goes back to the start.
    rows = last_history(desk.session, game.id, HISTORY_LENGTH + 1)
    from_start = len(rows) <= HISTORY_LENGTH
    entries = [(entry, events_of(entry)) for entry in rows[-HISTORY_LENGTH:]]
    tellers: dict[tuple[tuple[str, ...], bool], Teller] = {}

    def teller(names: tuple[str, ...], public: bool) -> Teller:
        if (names, public) not in tellers:
            tellers[names, public] = Teller(
                replace(scene, names=names), seat, public=public, in_history=True
            )
        return tellers[names, public]

    # The first entry told as the seat's (None: a watcher's, none is).
    since = (
        max((entry.seq for entry, events in entries if _changed_hands(events, seat)), default=0)
        if seat is not None
        else None
    )
    undone = undone_entries(entries)
    reader = game.seat(seat).address.lower() if seat is not None else None
    lines = []
    for (entry, events), then in zip(entries, tables_then(game, scene.names, entries), strict=True):
        held = since is not None and entry.seq >= since
        yours = entry.actor.lower() == reader
        told = teller(then.names, public=not held).sentences(events)
        # Talk to others, and the moderator's or the game master's word to another seat alone
        # (its early orders refused, its status sent again), leave no line: not even that
        # there was one ("The game master: changed the game (why: Bo lost the email)").
        if not told and (entry.kind == "talk" or (entry.kind in ("system", "gm") and events)):
            continue
        lines_of_orders = entry.summary if held and yours and entry.kind == "order" else None
        # One thing that happened is the entry's line, what it heads (the events of orders the
        # moderator played for a seat) listed under it; more things are listed under it, a
        # line each.
        alone = lines_of_orders is None and len(told) == 1
        summary = told[0].text if alone else lines_of_orders or _QUIET[entry.kind]
        actor = "You" if yours else then.actor_name
        lines.append(
            HistoryLine(
                entry.at.strftime("%Y-%m-%d %H:%M"),
                # Talk names its speaker itself ("Ann says: ..."), and so does a line that begins
                # with its actor ("The game master changed Ann's money."): no "Ann: " before it.
                "" if entry.kind == "talk" or _begins_with(summary, actor) else actor,
                summary,
                told[0].under if alone else tuple(told),
                entry.why,
                entry.seq in undone,
            )
        )
    return History(tuple(lines), from_start)


def undone_entries(entries: Sequence[tuple[HistoryRow, Sequence[Event]]]) -> set[int]:
    """The entries a later `gm undo` went back past: those between an undo and the entry it went
    back to. Talk never: it was delivered when it was said, and no undo takes it back."""
    undos = [
        (e.entry, entry.seq) for entry, events in entries for e in events if isinstance(e, Undone)
    ]
    return {
        entry.seq
        for entry, _ in entries
        if entry.kind != "talk" and any(target < entry.seq < undo for target, undo in undos)
    }


def _begins_with(sentence: str, name: str) -> bool:
    """Whether the sentence begins with the name as a word: "Bo hired", not "Bob hired"."""
    return sentence.startswith(name) and not sentence[len(name) : len(name) + 1].isalnum()


def _changed_hands(events: Sequence[Event], seat: int) -> bool:
    """Whether the seat passed to someone else in this entry (a resignation, `gm replace`)."""
    return any(isinstance(event, SeatLeft | SeatMoved) and event.seat == seat for event in events)


# What an entry says when it tells the reader nothing: another player's sealed orders, or an
# entry from before events were kept.
_QUIET = {
    "order": "sent orders",
    "gm": "changed the game",
    "system": "noted a change to the game",
    "talk": "talked",
}


def events_of(entry: HistoryRow) -> list[Event]:
    """The entry's events; none when it has none recorded or they cannot be read (logged)."""
    if entry.events is None:
        return []
    try:
        return decode_events(entry.events)
    except EventDecodeError:
        log.warning("history entry %s of %s: unreadable events", entry.seq, entry.game_id)
        return []
