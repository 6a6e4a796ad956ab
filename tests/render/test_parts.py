"""A board's parts are remembered by the value of what they show (pbem/moderator/render.py,
`part`): names that equal the placeholders of the shared public board are still names, escaped,
whichever of the two was rendered first."""

from __future__ import annotations

import pytest

from pbem.moderator.boards import board_html
from tests.render.test_boards import BIG_TIME_GAMES, Game, final_state, seats
from tests.render.test_shared_boards import whole


@pytest.mark.parametrize("game", BIG_TIME_GAMES, ids=str)
@pytest.mark.parametrize("whole_first", [True, False], ids=["whole-first", "shared-first"])
def test_names_that_read_like_placeholders_stay_names(game: Game, whole_first: bool) -> None:
    names = [f"<?seat {seat}?>" for seat in range(game.players)]
    for viewer in seats(game):
        view = game.engine.view(final_state(game), viewer)
        if whole_first:
            expected = whole(game, view, names, viewer)
            shared = board_html(game.game, view, names, viewer)
        else:
            shared = board_html(game.game, view, names, viewer)
            expected = whole(game, view, names, viewer)
        assert shared == expected
        assert "&lt;?seat 0?&gt;" in shared
