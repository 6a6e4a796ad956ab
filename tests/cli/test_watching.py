"""`pbem start --private`, `pbem gm watch` and `unwatch`, and the watchers `pbem show` lists."""

from __future__ import annotations

import json

from tests.cli.conftest import Pbem

PLAYERS = ("--player", "ann@example.org:Ann", "--player", "bo@example.org:Bo")


def test_the_game_master_adds_and_removes_a_watcher_and_show_lists_them(pbem: Pbem) -> None:
    game = pbem("start", "--game", "bigtime", *PLAYERS, "--seed", "3").out.strip()
    ran = pbem("gm", "watch", game, "Fan@Example.net")
    assert (ran.code, ran.out.strip()) == (0, f"{game}: fan@example.net watches (1 watching)")
    again = pbem("gm", "watch", game, "fan@example.net", "--json")
    assert json.loads(again.out) == {
        "game": game,
        "address": "fan@example.net",
        "changed": False,
        "watchers": 1,
    }
    assert "Watchers (1): fan@example.net" in pbem("show", game).out
    assert json.loads(pbem("show", game, "--json").out)["watchers"] == ["fan@example.net"]
    # Never in the history the players read.
    assert "fan@example.net" not in pbem("history", game).out
    ran = pbem("gm", "unwatch", game, "fan@example.net")
    assert ran.out.strip() == f"{game}: fan@example.net no longer watches (0 watching)"
    assert "Watchers: none." in pbem("show", game).out


def test_a_private_game_refuses_watchers(pbem: Pbem) -> None:
    game = pbem("start", "--game", "showmanager", *PLAYERS, "--private").out.strip()
    ran = pbem("gm", "watch", game, "fan@example.net")
    assert ran.code == 1 and "private" in ran.err
    assert "Private game: no watchers." in pbem("show", game).out
    assert json.loads(pbem("show", game, "--json").out)["private"] is True
