"""What anyone may see of a game: the board as an observer sees it, and the events told to all.

The board is the engine's public view (`engine.public_view`, the one watchers are sent): no hand,
sealed order or face-down card, and Show Manager money only once the game is over.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

from pbem.games.base import Event
from pbem.moderator.events import PlayedFor
from pbem.moderator.loaded import LoadedGame
from pbem.moderator.render import environment


def public_board(game: LoadedGame, state: Any, names: list[str]) -> str:
    """The board partial of the game's kind (`templates/<game>/board.html.j2`), public."""
    template = environment().get_template(f"{game.row.game}/board.html.j2")
    view = game.engine.public_view(state)
    return template.render(view=view, names=names, viewer=None)


def public_events(events: Iterable[Event]) -> list[Event]:
    """The events told to everyone: one told to some seats only (`to`) is left out, also inside
    what the moderator played for a seat."""
    kept: list[Event] = []
    for event in events:
        if event.to is not None:
            continue
        if isinstance(event, PlayedFor):
            event = dataclasses.replace(event, events=tuple(public_events(event.events)))
        kept.append(event)
    return kept
