"""Seeded Show Manager games play out exactly as they did before the engine was made faster
(issue 14): the same actions, events, outcome and final state, hashed (`tests/support/digest`)."""

from __future__ import annotations

import pytest

from pbem.games.showmanager import ENGINE
from tests.support.digest import bot_games_digest, random_games_digest

GAMES = 30
BOT_GAMES = 5
DIGESTS = {  # (variant, players): (random games, bot games), recorded before issue 14's changes
    ("standard", 2): (
        "ef3130eb22539f9a3ad862cfb6199c59d042cf60e837554cc8923f497acb2270",
        "d0e70cfd88f7c9138a868cd9839ce41001b172b5ec33abc1244d80b34a8be1b5",
    ),
    ("standard", 4): (
        "04eeb9e51dd33964e3bb7679398f8bd1a1c4f384aea754ca678e1237af3f114e",
        "252f751ece252ac68a69dcbc63e17956d4bdbdf0b96b369685884bc85e4addc3",
    ),
    ("standard", 6): (
        "fbfa10de74230235d5270bf17591fd904d2d083731524abd731bef7989893ac8",
        "b89c18cff337c1fe2200626ab2a04f43c5c33f60ad7d4c3bc0788e200dae6554",
    ),
    ("queen", 3): (
        "109d34a214c17345219ab14276fc89618a6b5c3900b0e2fbc8cdc7fe6da8e04f",
        "4528d2d8a28b45bf1947c19dc2f5d1f7073f94252d9dcb04fd9d923c13db19e1",
    ),
    ("premiere", 5): (
        "3777e5eea627d0b933dc72ca868686a8b17b8b9776c60903310707dfd52306f6",
        "2276715f374ebc9c25d17451513031fb5e265c80859f389f4a2af54148fb38d2",
    ),
}


@pytest.mark.parametrize(("variant", "players"), sorted(DIGESTS))
def test_random_games_play_out_as_recorded(variant: str, players: int) -> None:
    expected = DIGESTS[variant, players][0]
    assert random_games_digest(ENGINE, variant, players, GAMES) == expected


@pytest.mark.parametrize(("variant", "players"), sorted(DIGESTS))
def test_bot_games_play_out_as_recorded(variant: str, players: int) -> None:
    expected = DIGESTS[variant, players][1]
    assert bot_games_digest(ENGINE, variant, players, BOT_GAMES) == expected
