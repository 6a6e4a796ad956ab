"""Whole random games through pbem's simulation harness, for every variant and player count."""

from __future__ import annotations

import pytest

from pbem.cli.simulate import simulate
from pbem.games.showmanager import ENGINE
from tests.showmanager.sm_tables import CONFIGS


@pytest.mark.parametrize(("variant", "players"), CONFIGS)
def test_every_random_game_finishes(variant: str, players: int) -> None:
    report = simulate(ENGINE, variant, players, games=10, seed=1)
    assert report.finished == report.games == 10
