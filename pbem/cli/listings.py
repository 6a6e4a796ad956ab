"""The rows `pbem games` and `pbem history` print, as a table or as JSON for scripts."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GameListing:
    id: str
    game: str
    variant: str
    status: str
    players: int
    started: str


@dataclass(frozen=True)
class HistoryListing:
    seq: int
    at: str
    actor: str
    kind: str
    summary: str
    why: str | None
