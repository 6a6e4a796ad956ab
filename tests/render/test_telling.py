"""An events template's macros are built once for a game's reader and kept (telling.py): the
lines told still follow the names, the reader and the data of each letter's scene."""

from __future__ import annotations

from pbem.games.bigtime.components import load_components
from pbem.games.bigtime.events import OpinionMoved
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


def test_a_public_opinion_marker_at_the_end_of_the_chart_is_told_where_it_stays() -> None:
    # Found in play-testing: "Comedians moves up 16 -> 16 -> 16 -> 16 -> 16 -> 16".
    scene = Scene(["Ann", "Bo"], load_components(), title="The Big Time!", game_id="bt-1")

    def told(path: tuple[int, ...], up: bool) -> str:
        moved = OpinionMoved(1, "Smash", "Comedians", up, path, "The Big Time")
        return " ".join(tell([moved], scene, 0))

    assert told((16, 16, 16, 16), up=True) == (
        "Public Opinion (Bo's Smash): Comedians stays at 16, the top of the chart (The Big Time)."
    )
    assert told((14, 15, 16, 16), up=True).endswith(
        "moves up 14 -> 15 -> 16, the top of the chart (The Big Time)."
    )
    assert told((1, 1), up=False).endswith("stays at 1, the bottom of the chart (The Big Time).")
    assert told((3, 4, 5), up=True).endswith("Comedians moves up 3 -> 4 -> 5 (The Big Time).")
