"""A game's recorded history read again as anyone may read it: chapters of public events, one
per phase (The Big Time!) or round of turns (Show Manager), each ending with the public board as
it stood then.

One entry can resolve two phases: a Big Time! phase 2 whose every order came with its Headliner
preferences runs straight through phase 3 and the show. Its events are split where phase 3's bids
are revealed, and phase 3 gets a chapter of its own; phase 2's chapter then has no board, since
the game never stood between the two (no status was sent there).

Every history entry keeps the state it left (`state_after`) and its events, so the boards are
rebuilt from the record itself. An entry a `gm undo` took back stays where it was made, marked
undone as a player's HISTORY marks it; the undo itself is told where it put the game: in the
chapter of the phase (or round) it went back to, which goes on after it. Entry summaries and
actors' addresses are the game master's and never used.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from sqlmodel import Session

from pbem.games.base import Event
from pbem.games.bigtime.events import BidsRevealed
from pbem.games.event_codec import decode_events
from pbem.moderator import events as _moderator_events  # noqa: F401 - registers their kinds
from pbem.moderator.events import PlayedFor, Undone
from pbem.moderator.holders import tables_then
from pbem.moderator.loaded import LoadedGame
from pbem.moderator.seats import undone_entries
from pbem.moderator.telling import Sentence, Teller, scene_of, texts
from pbem.store import HistoryRow, history_since

from .public import public_board, public_events

# What an entry says when nothing in it is public (another player's sealed orders).
_QUIET = {"order": "sent orders", "gm": "changed the game", "system": "noted a change"}
# Events of this namespace are table talk (another part of issue 13): shown as speech.
TALK = "talk."
START = "The start"


@dataclass(frozen=True)
class Told:
    """One history entry as everyone may read it: what the moderator played for a seat heads
    the events of those orders (`Sentence.under`)."""

    at: str
    told: tuple[Sentence, ...]
    talk: bool
    undone: bool  # a later `gm undo` took it back

    @property
    def lines(self) -> tuple[str, ...]:
        """Every sentence's words, a heading before what it heads."""
        return tuple(texts(self.told))


@dataclass(frozen=True)
class Chapter:
    """A Big Time! phase or a Show Manager round of turns: its title, what happened in it, and
    the public board after it."""

    title: str
    entries: tuple[Told, ...]
    board: str | None  # None: the next phase followed in the same entry (module docstring)
    names: tuple[str, ...]  # the players as the chapter ends (who holds each seat then)


def chapters(session: Session, game: LoadedGame) -> list[Chapter]:
    """The game's history, chapter by chapter, as an observer would have followed it: each entry
    names the players as they were then (before `gm replace`, the seat's holder of that time)."""
    scene = scene_of(game)
    tellers: dict[tuple[str, ...], Teller] = {}
    rows = [(row, _events(row)) for row in history_since(session, game.id, 0)]
    undone = undone_entries(rows)
    found: list[Chapter] = []
    entries: list[Told] = []
    title, state, names = START, None, list(scene.names)
    rounds = _Rounds(game)
    for (row, recorded), then in zip(rows, tables_then(game, scene.names, rows), strict=True):
        after = game.engine.load(json.loads(row.state_after))
        undo = any(isinstance(event, Undone) for event in recorded)
        made_at = after if undo else state  # an undo is told where it put the game
        if made_at is not None and (title == START or rounds.opens_chapter(made_at, undo)):
            board = public_board(game, state, names)
            found.append(Chapter(title, tuple(entries), board, tuple(names)))
            entries = []
            title = _again(_title(game, made_at, names, len(found)), found)
            rounds.open(made_at)
        names = list(then.names)
        if then.names not in tellers:
            tellers[then.names] = Teller(replace(scene, names=then.names), None, in_history=True)
        teller = tellers[then.names]
        events = public_events(recorded)
        first, *later = _by_phase(events)
        lines = teller.sentences(first)
        # Sealed orders (The Big Time!): who sent them is public, what they hold is not.
        sealed = not game.kind.turn_based and len(events) < len(recorded)
        # The moderator's or the game master's word to one seat alone (early orders refused,
        # a status sent again) is not told at all.
        private_note = row.kind in ("system", "gm") and bool(recorded) and not events
        if (sealed or not lines) and row.kind != "talk" and not private_note:
            lines.insert(0, Sentence(f"{then.actor_name} {_QUIET.get(row.kind, 'wrote')}."))
        at = row.at.strftime("%Y-%m-%d %H:%M")
        # Talk to some players only leaves no trace: not even that it was said (press `all`).
        taken_back = row.seq in undone
        if lines:
            talk = any(e.kind.startswith(TALK) for e in events)
            entries.append(Told(at, tuple(lines), talk, taken_back))
        for part in later:
            found.append(Chapter(title, tuple(entries), None, tuple(names)))
            title = _again(_title_of_phase(game, part[0], names), found)
            entries = [Told(at, tuple(teller.sentences(part)), False, taken_back)]
            rounds.open(None)
        if undo:
            rounds.went_back(after)
        elif state is not None:
            rounds.moved(state, after)
        state = after
    if state is not None:
        board = public_board(game, state, names)
        found.append(Chapter(title, tuple(entries), board, tuple(names)))
    return found


class _Rounds:
    """Where chapters begin. The Big Time!: each phase is one. Show Manager: each round of turns
    (a board after every single turn would make the page very long); a round ends when a seat
    whose turn ended in it has the turn again."""

    def __init__(self, game: LoadedGame) -> None:
        self.engine, self.turn_based = game.engine, game.kind.turn_based
        self.seats = len(game.seats)
        self.progress = ""
        self.done: set[int] = set()
        self.first: int | None = None  # whose turn opened the round

    def open(self, state: Any | None) -> None:
        """A chapter begins at `state`; None: at a phase begun inside an entry, where the game
        never stood, so that any entry after it begins the next chapter."""
        self.progress = "" if state is None else self.engine.progress(state)
        self.done = set()
        turn = self.engine.awaiting(state)[:1] if state is not None else ()
        self.first = turn[0] if turn else None

    def went_back(self, state: Any) -> None:
        """An undo put the game at `state`. The Big Time!: its phase is counted anew. A round of
        turns goes on from there, the turns before it in the round still counted (clockwise
        from the round's first seat), so the next round again opens with that seat
        (play-testing: after an undo every round began with the seat it went back to)."""
        turn = self.engine.awaiting(state)[:1]
        if not self.turn_based or not turn or self.first is None:
            self.open(state)
            return
        self.done, seat = set(), self.first
        while seat != turn[0] and len(self.done) < self.seats:
            self.done.add(seat)
            seat = (seat + 1) % self.seats

    def moved(self, before: Any, after: Any) -> None:
        """An entry took the game from `before` to `after`: a turn that ended counts."""
        if self.engine.progress(after) != self.engine.progress(before):
            self.done.update(self.engine.awaiting(before)[:1])

    def opens_chapter(self, state: Any, undo: bool) -> bool:
        """Whether the next entry, made at `state`, begins a new chapter. An undo (`state`: where
        it put the game) begins one when it went back to another phase; in a round of turns it
        never does, as the round goes on from where it put the game."""
        if not self.turn_based:
            return self.engine.progress(state) != self.progress
        turn = self.engine.awaiting(state)[:1]
        return not undo and bool(turn) and turn[0] in self.done


def _title(game: LoadedGame, state: Any, names: list[str], number: int) -> str:
    if game.kind.turn_based:
        return f"Round {number}"
    return game.kind.phase(state, None, names)


def _again(title: str, found: Sequence[Chapter]) -> str:
    """A phase played again after an undo went back past it is told apart from its first time."""
    return f"{title} (again)" if any(chapter.title == title for chapter in found) else title


@dataclass(frozen=True)
class _PhaseAt:
    """Where a phase that began inside an entry stands, as `kind.phase` reads a state."""

    round: int
    phase: int
    over: bool = False


def _title_of_phase(game: LoadedGame, opening: Event, names: list[str]) -> str:
    assert isinstance(opening, BidsRevealed)  # `_by_phase` begins each later part with one
    return game.kind.phase(_PhaseAt(opening.round, opening.phase), None, names)


def _by_phase(events: Sequence[Event]) -> list[list[Event]]:
    """An entry's events, split before each phase that began in it: the first part belongs to
    the phase the entry was made in, each later one begins with that phase's `BidsRevealed`.
    What the moderator played for a seat (`PlayedFor`) keeps only the first part's events: what
    followed is the later phase's, not the seat's orders."""
    parts, _ = _split(events, opened=False)
    return parts


def _split(events: Sequence[Event], opened: bool) -> tuple[list[list[Event]], bool]:
    """`_by_phase`, told whether a phase's bids were already revealed earlier in the entry."""
    parts: list[list[Event]] = [[]]
    for event in events:
        if isinstance(event, PlayedFor):
            inner, opened = _split(event.events, opened)
            parts[-1].append(replace(event, events=tuple(inner[0])))
            parts.extend(inner[1:])
            continue
        if isinstance(event, BidsRevealed):
            if opened:
                parts.append([])
            opened = True
        parts[-1].append(event)
    return parts, opened


def _events(row: HistoryRow) -> list[Event]:
    return decode_events(row.events) if row.events else []
