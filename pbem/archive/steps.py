"""The kept changes a transcript is written from (`transcript.py`), each with what made it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Sent:
    """A change an email makes: the seat's orders, sent at history entry `seq`."""

    seat: int
    body: str
    seq: int


@dataclass(frozen=True)
class Replaced:
    """A `gm replace` of the seat at history entry `seq`, while the game ran."""

    seat: int
    seq: int
    why: str | None


@dataclass(frozen=True)
class Left:
    """The seat passed to a computer player at history entry `seq`: its player's RESIGN, or
    the game master's `gm remove` (`removed`)."""

    seat: int
    seq: int
    removed: bool
    why: str | None


@dataclass(frozen=True)
class Command:
    """A game master's correction written as the `gm:` entry that makes it (`set-money 2 40`)."""

    words: list[str]


@dataclass(frozen=True)
class Undo:
    """A `gm undo` written out: back to the state after step `back` (an index of the steps)."""

    back: int
    why: str | None


Made = Sent | Replaced | Left | Undo | Command | None


@dataclass(frozen=True)
class Step:
    """A kept change: the state it left, at history entry `seq`, and what made it (None: the
    start, or a change no email can make)."""

    state: str
    seq: int
    made: Made
