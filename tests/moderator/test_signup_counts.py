"""Counts in the sign-up's words, one and many (play-testing: "sm-1 closed; 1 players told.", "1 of
3-4 seats are taken.", "started the game with the 1 players signed up", and a history summary
"with 1 of 4 players and 2 computer players" of a game for 3-4 that started with 3), and a
`--seats` range written the wrong way round."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine
from sqlmodel import Session

from pbem.moderator.counting import counted
from pbem.moderator.desk import Desk
from pbem.moderator.loaded import load_game
from pbem.moderator.seats import history_lines
from pbem.moderator.signup import SignupRequest, open_signup
from pbem.moderator.signup_start import SignupError, gm_close, gm_start
from pbem.store import last_history, session_scope
from tests.moderator.test_signup import GM, NOW, PEOPLE, SETTINGS, SignupDesk


def test_counted_says_one_thing_and_many() -> None:
    assert counted(1, "player") == "1 player"
    assert counted(0, "player") == "0 players"
    assert counted(3, "computer player") == "3 computer players"
    assert counted(2, "entry", "entries") == "2 entries"


def test_the_gm_is_told_one_seat_is_taken(db_engine: Engine) -> None:
    game = SignupDesk(db_engine, seats="3-4")
    game.mail(PEOPLE[0], "JOIN Ann")
    assert "1 of 3-4 seats is taken." in game.last_to(GM)
    game.mail(PEOPLE[1], "JOIN Bo")
    assert "2 of 3-4 seats are taken." in game.last_to(GM)
    game.mail(PEOPLE[1], "LEAVE")
    assert "1 of 3-4 seats is taken." in game.last_to(GM)


@pytest.mark.parametrize(
    ("joins", "told"), [(0, "nobody had signed up"), (1, "1 player told"), (2, "2 players told")]
)
def test_a_closed_sign_up_tells_the_gm_how_many_were_told(
    db_engine: Engine, joins: int, told: str
) -> None:
    game = SignupDesk(db_engine, seats="3-4")
    for address in PEOPLE[:joins]:
        game.mail(address, "JOIN")
    game.gm(lambda desk: gm_close(desk, game.id, None))
    assert f"{game.id} closed; {told}." in " ".join(game.last_to(GM).split())


def test_a_game_started_with_one_player_and_computer_players_says_so(db_engine: Engine) -> None:
    game = SignupDesk(db_engine, seats="3-4")
    game.mail(PEOPLE[0], "JOIN Ann")
    game.gm(lambda desk: gm_start(desk, game.id, None, fill=True))
    with session_scope(db_engine) as session:
        summary = last_history(session, game.id, 1)[-1].summary
        history = history_lines(Desk(session, SETTINGS), load_game(session, game.id), 0)
    # Not "1 of 4 players": the sign-up was for 3-4, and the game started with 3.
    assert summary == "started from the sign-up with 1 player signed up and 2 computer players"
    # One thing an entry tells is its line; more are listed under it.
    told = [line.summary for line in history.lines]
    told += [sentence.text for line in history.lines for sentence in line.told]
    assert (
        "The game master started the game with the one player signed up and 2 computer players "
        "to make up the numbers." in told
    )


def test_a_game_started_with_the_players_signed_up_alone_names_no_computer_players(
    db_engine: Engine,
) -> None:
    game = SignupDesk(db_engine, seats="3-4")
    for address in PEOPLE[:3]:
        game.mail(address, "JOIN")
    game.gm(lambda desk: gm_start(desk, game.id, None))
    with Session(db_engine) as session:
        summary = last_history(session, game.id, 1)[-1].summary
    assert summary == "started from the sign-up with 3 players signed up"


@pytest.mark.parametrize(
    ("seats", "message"),
    [
        ("4-3", "--seats '4-3': write the fewest first, e.g. 3-4"),
        ("9-1", "--seats '9-1': write the fewest first; this game is for 2-4 players"),
        ("3-9", "--seats '3-9': this game is for 2-4 players"),
    ],
)
def test_seats_the_wrong_way_round_are_told_to_put_the_fewest_first(
    db_engine: Engine, seats: str, message: str
) -> None:
    with session_scope(db_engine) as session, pytest.raises(SignupError) as caught:
        open_signup(Desk(session, SETTINGS, lambda: NOW), SignupRequest("bigtime", seats=seats))
    assert str(caught.value) == message
