"""The rows `pbem games` and `pbem history` print, as a table or as JSON for scripts, and the
watchers line of `pbem show`."""

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
    undone: bool  # a later `gm undo` went back past it


def watching_line(private: bool, watchers: list[str]) -> str:
    """What `pbem show` says of a game's watchers (the game master alone reads addresses)."""
    if private:
        return "Private game: no watchers."
    if not watchers:
        return "Watchers: none."
    return f"Watchers ({len(watchers)}): {', '.join(watchers)}"
