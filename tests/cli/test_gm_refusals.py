"""A refused `pbem gm` override, as the game master reads it: a refusal the rules word for the
player says whose orders and hand it is about, and `--json` prints JSON (play-testing: "Error:
Bo's orders are refused: You hold 3 3 2 2 ..." read as the game master's own hand, and a
refused `gm order --json` printed plain text only)."""

from __future__ import annotations

import json

import pytest

from tests.cli.conftest import Pbem

BT = ("--game", "bigtime", "--player", "ann@example.org:Ann", "--player", "bo@example.org:Bo")
BT = (*BT, "--player", "cy@example.org:Cy", "--seed", "3")


@pytest.fixture
def game(pbem: Pbem) -> str:
    started = pbem("start", *BT)
    assert started.code == 0, started.err
    return started.out.strip()


def test_a_refused_order_says_whose_hand_the_rules_speak_of(pbem: Pbem, game: str) -> None:
    ran = pbem("gm", "order", game, "AM A1\nBID 9 9", "--as", "Bo")
    assert ran.code == 1 and ran.out == ""
    [line] = ran.err.splitlines()
    assert line.startswith(
        'Error: Bo\'s orders are refused at line 2 ("BID 9 9"); Bo would be told: "You hold 3 3 '
    )
    assert line.endswith(
        'you cannot bid 9 9. (legal now: BID any of your money cards, e.g. BID 3 2 1, or BID 0)"'
    )


def test_a_refusal_with_json_prints_json(pbem: Pbem, game: str) -> None:
    ran = pbem("gm", "order", game, "BID 9 9", "--as", "Bo", "--json")
    assert ran.code == 1
    refused = json.loads(ran.out)
    assert (refused["game"], refused["verb"]) == (game, "order")
    assert refused["error"].startswith("Bo's orders are refused at line 1")
    assert ran.err.strip() == f"Error: {refused['error']}"  # the line a person reads, as before
    # A usage error (exit 2) and a refusal before the game is loaded, too.
    for args, code, words in (
        (("set-money", game, "Bo", "-5"), 2, "money -5"),
        (("deadline", game, "soon"), 2, "deadline 'soon'"),
        (("order", game, "BID 0", "--as", "Zed"), 1, "'Zed' is not a player"),
        (("undo", "bt-9"), 1, "bt-9"),
        (("watch", game, "not-an-address"), 2, "not an email address"),
    ):
        ran = pbem("gm", *args, "--json")
        assert ran.code == code, args
        refused = json.loads(ran.out)
        assert refused["verb"] == args[0] and words in refused["error"], refused
