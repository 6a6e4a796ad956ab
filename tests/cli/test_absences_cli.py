"""Absences from the game master's side: the start options, `pbem show`, `pbem gm back`."""

from __future__ import annotations

import json
import os

from sqlmodel import Session

from pbem.moderator.absences import go_away
from pbem.moderator.desk import Desk
from pbem.moderator.loaded import load_game
from pbem.orders.absence import Away
from pbem.settings import Settings
from pbem.store import open_database, session_scope
from tests.cli.conftest import Pbem

PLAYERS = ("--player", "ann@example.org:Ann", "--player", "bo@example.org:Bo")


def test_start_keeps_the_away_options_show_lists_absences_and_gm_back_ends_one(
    pbem: Pbem,
) -> None:
    started = pbem(
        "start", "--game", "showmanager", *PLAYERS, "--seed", "3", "--away", "wait",
        "--max-away-days", "5",
    )  # fmt: skip
    assert started.code == 0, started.err
    game_id = started.out.strip()
    engine = open_database(os.environ["PBEM_DATABASE_URL"])
    try:
        with session_scope(engine) as session:
            game = load_game(session, game_id)
            assert (game.row.away_mode, game.row.max_away_days) == ("wait", 5)
            go_away(Desk(session, Settings()), game, 1, Away(days=3), actor="test", inbound_id=None)
        shown = pbem("show", game_id)
        assert shown.code == 0 and "Bo is away until" in shown.out
        seats = json.loads(pbem("show", game_id, "--json").out)["seats"]
        assert seats[1]["away_until"] and seats[1]["away_days"] == 3
        ran = pbem("gm", "back", game_id, "Bo", "--why", "home early", "--json")
        assert ran.code == 0, ran.err
        change = json.loads(ran.out)
        assert (change["verb"], change["why"]) == ("back", "home early")
        assert set(change["told"]) == {"ann@example.org", "bo@example.org"}
        with Session(engine) as session:
            assert load_game(session, game_id).seat(1).away_until is None
        assert "away until" not in pbem("show", game_id).out
        history = json.loads(pbem("history", game_id, "--json").out)
        assert history[-1]["actor"] == "gm" and history[-1]["summary"] == "Bo back (gm)"
    finally:
        engine.dispose()
