"""Levels per seat: `--bot NAME:LEVEL`, kept with the seat, played by the moderator's bots."""

from __future__ import annotations

from typing import get_args

import pytest
from sqlalchemy import Engine
from sqlmodel import Session

from pbem.games.levels import DEFAULT_LEVEL, LEVELS
from pbem.moderator.bots import answer_bot_mail
from pbem.moderator.desk import Desk
from pbem.moderator.loaded import load_game
from pbem.moderator.start import GameRequest, PlayerSpec, StartError, start_game
from pbem.settings import Settings
from pbem.store import session_scope, utc_now
from pbem.store.tables import BotLevel
from tests.support.db import db_engine, db_url, postgres_admin, postgres_url

__all__ = ["db_engine", "db_url", "postgres_admin", "postgres_url"]

SETTINGS = Settings(address="pbem@example.org")


def test_the_stored_levels_are_the_computer_players_levels() -> None:
    assert get_args(BotLevel) == LEVELS
    assert DEFAULT_LEVEL in LEVELS


def test_a_bot_is_named_with_an_optional_level() -> None:
    robby = PlayerSpec.computer("Robby:strong")
    assert (robby.bot, robby.level, robby.address) == ("Robby", "strong", "robby@bots.invalid")
    assert PlayerSpec.computer("Sue").level == "strong"
    assert PlayerSpec.computer("Rand: random ").level == "random"


@pytest.mark.parametrize(
    ("text", "told"),
    [
        ("Robby:clever", "the level 'clever' is not one of strong, sensible, random"),
        (":strong", "give a name, as NAME or NAME:LEVEL"),
    ],
)
def test_a_bad_bot_is_refused_with_the_choices(text: str, told: str) -> None:
    with pytest.raises(StartError, match=told):
        PlayerSpec.computer(text)


def test_computer_players_of_each_level_play_a_game_to_its_end(db_engine: Engine) -> None:
    players = tuple(
        PlayerSpec.computer(text) for text in ("Robby:strong", "Sue:sensible", "Rand:random")
    )
    with session_scope(db_engine) as session:
        game_id = start_game(Desk(session, SETTINGS), GameRequest("bigtime", players, seed=5)).id
    with Session(db_engine) as session:
        seats = load_game(session, game_id).seats
        assert [seat.bot_level for seat in seats] == ["strong", "sensible", "random"]
    # every seat bids in phases 1 and 2 of four rounds (a phase-3 order may come with phase 2's)
    assert answer_bot_mail(db_engine, SETTINGS, utc_now).answered >= 3 * 8
    with Session(db_engine) as session:
        game = load_game(session, game_id)
        assert game.engine.is_over(game.state)
        assert game.engine.outcome(game.state).winner is not None
