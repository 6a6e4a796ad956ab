"""Engine events told as a player reads them: seats named "Player 1", "Player 2", ..."""

from __future__ import annotations

from typing import Any

from pbem.games.base import Event
from pbem.moderator.telling import Scene, tell

SEAT_NAMES = [f"Player {n}" for n in range(1, 9)]


def told(event: Event, state: Any, reader: int | None = None) -> str:
    """One event as `reader` is told it (None: the game master, who is told everything)."""
    scene = Scene(SEAT_NAMES, state.data, getattr(state, "variant", "standard"))
    return " ".join(tell([event], scene, reader))


def told_all(events: list[Event], state: Any, reader: int | None = None) -> list[str]:
    return [told(event, state, reader) for event in events if event.visible_to(reader)]
