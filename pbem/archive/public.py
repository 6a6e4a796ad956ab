"""What anyone may see of a game: the board as an observer sees it, and the events told to all.

Built from a seat's own view (which already hides face-down cards and the other hands) with that
seat's private parts taken out too, so a mistake here can at worst show what one player saw, never
what the game master sees. Show Manager money is hidden until the game is over, as in play.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

from pbem.games.base import Event
from pbem.moderator.events import PlayedFor
from pbem.moderator.loaded import LoadedGame
from pbem.moderator.render import environment


def public_view(game: LoadedGame, state: Any) -> Any:
    """The board of `state` with no hand, sealed order or hidden money in it."""
    seat_view = game.engine.view(state, 0)
    if game.row.game == "bigtime":
        return dataclasses.replace(seat_view, private=())
    over = state.turn is None
    players = tuple(
        dataclasses.replace(player, hand=None, money=player.money if over else None)
        for player in seat_view.players
    )
    return dataclasses.replace(seat_view, viewer=None, players=players, legal=())


def public_board(game: LoadedGame, state: Any, names: list[str]) -> str:
    """The board partial of the game's kind (`templates/<game>/board.html.j2`), public."""
    template = environment().get_template(f"{game.row.game}/board.html.j2")
    return template.render(view=public_view(game, state), names=names, viewer=None, public=True)


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
