"""An events template's macros are built once for a game's reader and kept (telling.py): the
lines told still follow the names, the reader and the data of each letter's scene."""

from __future__ import annotations

from pbem.games.bigtime.components import load_components
from pbem.moderator.events import SeatLeft
from pbem.moderator.telling import Scene, tell


def test_kept_macros_name_the_players_of_the_scene_at_hand() -> None:
    data = load_components()
    before = Scene(["Ann", "Bo"], data, title="The Big Time!", game_id="bt-1")
    after = Scene(["Ann", "Cy"], data, title="The Big Time!", game_id="bt-1")
    event = SeatLeft(seat=1)
    first = tell([event], before, 0)
    assert tell([event], before, 0) == first
    assert any("Bo left" in line for line in first)
    renamed = tell([event], after, 0)
    assert renamed != first
    assert any("Cy left" in line for line in renamed)
    assert tell([event], before, 1) != first  # "you" for the seat's own reader
