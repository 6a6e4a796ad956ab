"""`--json` on `games`, `show`, `history` and the `gm` verbs: one JSON value on stdout, for
scripts, saying what is there or what changed."""

from __future__ import annotations

import json

from tests.cli.conftest import Pbem

PLAYERS = ("--player", "ann@example.org:Ann", "--player", "bo@example.org:Bo")


def test_games_show_and_history_print_json(pbem: Pbem) -> None:
    started = pbem("start", "--game", "showmanager", *PLAYERS, "--seed", "3")
    assert started.code == 0, started.err
    game = started.out.strip()

    listed = json.loads(pbem("games", "--json").out)
    assert [(g["id"], g["game"], g["players"], g["status"]) for g in listed] == [
        (game, "showmanager", 2, "running")
    ]
    shown = json.loads(pbem("show", game, "--json").out)
    assert [s["name"] for s in shown["seats"]] == ["Ann", "Bo"]
    history = json.loads(pbem("history", game, "--json").out)
    assert history[0]["seq"] == 1 and history[0]["summary"].startswith("game started")


def test_gm_verbs_print_what_changed_and_whom_they_told(pbem: Pbem) -> None:
    game = pbem("start", "--game", "showmanager", *PLAYERS, "--seed", "3").out.strip()
    ran = pbem("gm", "set-money", game, "Bo", "5", "--why", "compensation", "--json")
    assert ran.code == 0, ran.err
    change = json.loads(ran.out)
    assert change == {
        "game": game,
        "verb": "set-money",
        "summary": "money of Bo set to 5",
        "why": "compensation",
        "entry": 2,
        "told": ["ann@example.org", "bo@example.org"],
    }
    ran = pbem("gm", "deadline", game, "none", "--json")
    assert json.loads(ran.out)["summary"] == "deadline removed"
    history = json.loads(pbem("history", game, "--json").out)
    assert [(h["actor"], h["why"]) for h in history[1:]] == [("gm", "compensation"), ("gm", None)]


def test_gm_verbs_say_in_a_line_what_changed(pbem: Pbem) -> None:
    game = pbem("start", "--game", "showmanager", *PLAYERS, "--seed", "3").out.strip()
    ran = pbem("gm", "deadline", game, "24", "--policy", "default", "--why", "speed up")
    assert ran.code == 0, ran.err
    assert ran.out.strip() == (
        f"{game}: deadline set to 24 hours, policy default (history entry 2; told "
        "ann@example.org, bo@example.org)"
    )


def test_show_tells_the_game_master_the_deadline_and_the_early_orders_waiting(pbem: Pbem) -> None:
    # Found in play-testing: the game master could not see the early orders the game held.
    game = pbem("start", "--game", "showmanager", *PLAYERS, "--first-player", "ann@example.org")
    game_id = game.out.strip()
    assert pbem("gm", "deadline", game_id, "24").code == 0
    assert pbem("show", game_id).out.strip().endswith("Early orders waiting: none.")
    assert pbem("gm", "order", game_id, "REFRESH\nHIRE 0", "--as", "Bo").code == 0
    assert (
        pbem("show", game_id).out.strip().endswith("Early orders waiting (1): Bo: REFRESH / HIRE 0")
    )
    shown = json.loads(pbem("show", game_id, "--json").out)
    assert (shown["deadline_hours"], shown["policy"]) == (24.0, "wait")
    assert shown["deadline_at"] is not None
    [waiting] = shown["waiting_orders"]
    assert (waiting["seat"], waiting["lines"]) == (2, "REFRESH\nHIRE 0")


def test_show_says_plainly_that_a_game_is_paused(pbem: Pbem) -> None:
    # Found in play-testing: only `--json` told the game master the game was paused.
    game = pbem("start", "--game", "showmanager", *PLAYERS, "--seed", "3").out.strip()
    assert "PAUSED" not in pbem("show", game).out
    assert pbem("gm", "pause", game, "--why", "holidays").code == 0
    shown = pbem("show", game).out
    assert shown.startswith(f"{game} (game master's view): PAUSED\n")
    assert f"no orders are taken and no deadline runs until `pbem gm resume {game}`" in shown


def test_history_marks_the_entries_an_undo_went_back_past(pbem: Pbem) -> None:
    # Found in play-testing: the players' HISTORY said "[undone]", `pbem history` did not.
    game = pbem("start", "--game", "showmanager", *PLAYERS, "--seed", "3").out.strip()
    assert pbem("gm", "set-money", game, "Bo", "5").code == 0
    assert pbem("gm", "undo", game, "--why", "wrong player").code == 0
    listed = json.loads(pbem("history", game, "--json").out)
    assert [(h["seq"], h["undone"]) for h in listed] == [(1, False), (2, True), (3, False)]
    lines = pbem("history", game).out.splitlines()
    assert [line for line in lines if "[undone]" in line] == [
        line for line in lines if "money of Bo set to 5" in line
    ]
    assert any("money of Bo set to 5 [undone]" in line for line in lines)
