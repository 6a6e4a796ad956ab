"""Finished games to archive, one of each kind, each built once per test session (a whole game
takes a while)."""

from __future__ import annotations

import pytest

from tests.archive.samples import GAMES, Finished, play_corrected, play_sample


@pytest.fixture(scope="session", params=GAMES)
def finished(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Finished:
    folder = tmp_path_factory.mktemp(request.param)
    return play_sample(request.param, f"sqlite:///{folder}/pbem.sqlite3")


@pytest.fixture(scope="session")
def corrected(tmp_path_factory: pytest.TempPathFactory) -> Finished:
    """The Big Time! game with a replaced order, an undo and a `gm replace` (play_corrected)."""
    folder = tmp_path_factory.mktemp("corrected")
    return play_corrected(f"sqlite:///{folder}/pbem.sqlite3")
