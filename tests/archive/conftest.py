"""Finished games to archive, one of each kind, each built once per test session (a whole game
takes a while)."""

from __future__ import annotations

import pytest

from tests.archive.samples import GAMES, Finished, play_sample


@pytest.fixture(scope="session", params=GAMES)
def finished(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Finished:
    folder = tmp_path_factory.mktemp(request.param)
    return play_sample(request.param, f"sqlite:///{folder}/pbem.sqlite3")
