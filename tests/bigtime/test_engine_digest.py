"""Seeded Big Time! games play out exactly as they did before the engine was made faster
(issue 14): the same actions, events, outcome and final state, hashed (`tests/support/digest`)."""

from __future__ import annotations

import pytest

from pbem.games.bigtime import ENGINE
from tests.support.digest import bot_games_digest, random_games_digest

GAMES = 30
BOT_GAMES = 5
DIGESTS = {  # players: (random games, bot games), recorded before issue 14's changes
    2: (
        "27d37c94b76b8d2d30320b39391af6620064cd9a45cced0dd558bfa680b80e3d",
        "825d087c1e7c3d69e2511d4a5a03950d56efc98f04a8c94742399bc4091f40c5",
    ),
    3: (
        "6eea57240436df1f76827bdb0fcd628414c149d69301d05066de841e31960b0e",
        "c129a181733cec6e456e03f4ecf9565d6e143f68283815d732bbab1bec0653b2",
    ),
    4: (
        "93cc16fcd348c3a4e4c3069fd9ebe459562c024fec810d783006a5d033516e99",
        "e6a79abdd73904c1f7a2be2fd89400037760587f31a1788a74250c2ad3fd9ed2",
    ),
}


@pytest.mark.parametrize("players", sorted(DIGESTS))
def test_random_games_play_out_as_recorded(players: int) -> None:
    assert random_games_digest(ENGINE, "standard", players, GAMES) == DIGESTS[players][0]


@pytest.mark.parametrize("players", sorted(DIGESTS))
def test_bot_games_play_out_as_recorded(players: int) -> None:
    assert bot_games_digest(ENGINE, "standard", players, BOT_GAMES) == DIGESTS[players][1]
