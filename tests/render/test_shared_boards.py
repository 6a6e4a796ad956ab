"""A board's HTML from its public tables rendered once for all readers (pbem/moderator/boards.py)
is byte for byte the board rendered whole for each reader: every seat, the game master, a
watcher; with names that hold markup or look like the placeholders the shared tables carry."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.moderator.boards import board_html
from pbem.moderator.render import environment
from tests.render.test_boards import GAMES, NAMES, Game, final_state, seats

# A name that reads like another seat's placeholder: it is escaped, so it stays a name.
TRICKY_NAMES = ("<?seat 1?>", *NAMES[1:])


def whole(game: Game, view: Any, names: list[str], viewer: int | None) -> str:
    template = environment().get_template(f"{game.game}/board.html.j2")
    return template.render(view=view, names=names, viewer=viewer)


@pytest.mark.parametrize("game", GAMES, ids=str)
@pytest.mark.parametrize("names", [NAMES, TRICKY_NAMES], ids=["names", "tricky-names"])
def test_every_reader_gets_the_whole_board_rendered_for_them(
    game: Game, names: tuple[str, ...]
) -> None:
    state, players = final_state(game), list(names[: game.players])
    for viewer in seats(game):
        view = game.engine.view(state, viewer)
        assert board_html(game.game, view, players, viewer) == whole(game, view, players, viewer)
    public = game.engine.public_view(state)
    assert board_html(game.game, public, players, None) == whole(game, public, players, None)
