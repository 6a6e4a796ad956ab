"""A game's recorded history read again as anyone may read it: chapters of public events, one
per phase (The Big Time!) or round of turns (Show Manager), each ending with the public board as
it stood then.

Every history entry keeps the state it left (`state_after`) and its events, so the boards are
rebuilt from the record itself; an undo is an entry like any other, after which the game stands
where the undo put it. Entry summaries and actors' addresses are the game master's and never used.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlmodel import Session

from pbem.games.base import Event
from pbem.games.event_codec import decode_events
from pbem.moderator import events as _moderator_events  # noqa: F401 - registers their kinds
from pbem.moderator.loaded import LoadedGame
from pbem.moderator.telling import Teller, scene_of
from pbem.store import HistoryRow, history_since

from .public import public_board, public_events

# Who an entry's actor is when no seat holds that address now.
_ACTORS = {"gm": "The game master", "deadline": "The moderator", "mail": "The moderator"}
# What an entry says when nothing in it is public (another player's sealed orders).
_QUIET = {"order": "sent orders", "gm": "changed the game", "system": "noted a change"}
# Events of this namespace are table talk (another part of issue 13): shown as speech.
TALK = "talk."
START = "The start"


@dataclass(frozen=True)
class Told:
    """One history entry as everyone may read it."""

    at: str
    lines: tuple[str, ...]
    talk: bool


@dataclass(frozen=True)
class Chapter:
    """A Big Time! phase or a Show Manager round of turns: its title, what happened in it, and
    the public board after it."""

    title: str
    entries: tuple[Told, ...]
    board: str


def chapters(session: Session, game: LoadedGame) -> list[Chapter]:
    """The game's history, chapter by chapter, as an observer would have followed it."""
    scene = scene_of(game)
    teller = Teller(scene, None)
    names = list(scene.names)
    found: list[Chapter] = []
    entries: list[Told] = []
    title, state = START, None
    rounds = _Rounds(game)
    for row in history_since(session, game.id, 0):
        after = game.engine.load(json.loads(row.state_after))
        if state is not None and (title == START or rounds.opens_chapter(state)):
            found.append(Chapter(title, tuple(entries), public_board(game, state, names)))
            entries = []
            title = _title(game, state, names, len(found))
            rounds.open(state)
        recorded = _events(row)
        events = public_events(recorded)
        lines = teller.lines(events)
        # Sealed orders (The Big Time!): who sent them is public, what they hold is not.
        sealed = not game.kind.turn_based and len(events) < len(recorded)
        if (sealed or not lines) and row.kind != "talk":
            lines.insert(0, f"{_who(game, row, names)} {_QUIET.get(row.kind, 'wrote')}.")
        # Talk to some players only leaves no trace: not even that it was said (press `all`).
        if lines:
            entries.append(
                Told(
                    row.at.strftime("%Y-%m-%d %H:%M"),
                    tuple(lines),
                    any(event.kind.startswith(TALK) for event in events),
                )
            )
        if state is not None:
            rounds.moved(state, after)
        state = after
    if state is not None:
        found.append(Chapter(title, tuple(entries), public_board(game, state, names)))
    return found


class _Rounds:
    """Where chapters begin. The Big Time!: each phase is one. Show Manager: each round of turns
    (a board after every single turn would make the page very long); a round ends when a seat
    whose turn ended in it has the turn again."""

    def __init__(self, game: LoadedGame) -> None:
        self.engine, self.turn_based = game.engine, game.kind.turn_based
        self.progress = ""
        self.done: set[int] = set()

    def open(self, state: Any) -> None:
        self.progress, self.done = self.engine.progress(state), set()

    def moved(self, before: Any, after: Any) -> None:
        """An entry took the game from `before` to `after`: a turn that ended counts."""
        if self.engine.progress(after) != self.engine.progress(before):
            self.done.update(self.engine.awaiting(before)[:1])

    def opens_chapter(self, state: Any) -> bool:
        """Whether the next entry, made at `state`, begins a new chapter."""
        if not self.turn_based:
            return self.engine.progress(state) != self.progress
        turn = self.engine.awaiting(state)[:1]
        return bool(turn) and turn[0] in self.done


def _title(game: LoadedGame, state: Any, names: list[str], number: int) -> str:
    if game.kind.turn_based:
        return f"Round {number}"
    return game.kind.phase(state, None, names)


def _events(row: HistoryRow) -> list[Event]:
    return decode_events(row.events) if row.events else []


def _who(game: LoadedGame, row: HistoryRow, names: list[str]) -> str:
    """The name of whoever made the entry: a seat's name, never an address."""
    for seat in game.seats:
        if seat.address.lower() == row.actor.lower():
            return names[seat.position]
    return _ACTORS.get(row.actor, "A former player")
