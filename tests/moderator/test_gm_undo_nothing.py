"""An undo that would change nothing is refused: no history entry, no mail (play-testing: `pbem gm
undo` right after the start "moved the game back to round 1, phase 1", told every player and
watcher so, and stayed in the history for good). And the entries it may name are told plainly."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from sqlalchemy import Engine
from sqlmodel import Session, col, func, select

from pbem.moderator import gm
from pbem.moderator import undo as undoing
from pbem.moderator.bots import answer_bot_mail
from pbem.moderator.desk import Desk
from pbem.moderator.gm import GmError
from pbem.moderator.signup_start import gm_start
from pbem.store import HistoryRow, OutboxRow, session_scope, utc_now
from tests.moderator.conftest import ANN, BO, SETTINGS, Table
from tests.moderator.test_signup import PEOPLE, SignupDesk

SINCE_START = "nothing to undo: no orders or changes since the game started"


Game = Table | SignupDesk  # a game on the test database: its engine and id


def run(game: Game, command: Callable[..., object], *args: object) -> object:
    with session_scope(game.engine) as session:
        return command(Desk(session, SETTINGS), game.id, *args)


def counts(engine: Engine, game_id: str) -> tuple[int, int]:
    """The game's history entries and the emails in the outbox."""
    with Session(engine) as session:
        entries = session.exec(select(func.count()).where(col(HistoryRow.game_id) == game_id)).one()
        letters = session.exec(select(func.count()).select_from(OutboxRow)).one()
    return entries, letters


def refused(game: Game, to: int | str | None, words: str) -> None:
    """The undo is refused with `words`, and nothing is recorded or sent."""
    before = counts(game.engine, game.id)
    with pytest.raises(GmError) as caught:
        run(game, undoing.undo, to, "misclick")
    assert words in str(caught.value), caught.value
    assert counts(game.engine, game.id) == before


def test_an_undo_right_after_the_start_is_refused_and_tells_nobody(table) -> None:
    game = table("bigtime", [f"{ANN}:Ann", f"{BO}:Bo", "cy@example.org:Cy"], seed=3)
    refused(game, None, f"{game.id}: {SINCE_START}")
    # Named outright too: the only entry is where the game stands.
    refused(game, 1, SINCE_START)
    refused(game, "1", SINCE_START)


def test_an_undo_of_the_computer_players_first_orders_alone_is_refused(table) -> None:
    # Robby bids as soon as he reads his welcome: undone, he would bid again at once.
    game = table("bigtime", [f"{ANN}:Ann", f"{BO}:Bo"], bots=("Robby",), seed=3)
    answer_bot_mail(game.engine, SETTINGS, utc_now)
    assert counts(game.engine, game.id)[0] == 2
    refused(game, None, SINCE_START)


def test_an_undo_right_after_gm_start_is_refused(db_engine: Engine) -> None:
    # `pbem gm start` records an entry of its own after the start (and after the computer
    # players' first orders): it is the start, not a change to undo.
    signup = SignupDesk(db_engine, seats="3-4")
    signup.mail(PEOPLE[0], "JOIN Ann")
    signup.gm(lambda desk: gm_start(desk, signup.id, "a quiet week", fill=True))
    answer_bot_mail(db_engine, SETTINGS, utc_now)
    refused(signup, None, SINCE_START)


def test_an_undo_to_where_the_game_stands_names_the_entries_to_go_back_to(table) -> None:
    game = table("bigtime", [f"{ANN}:Ann", f"{BO}:Bo", "cy@example.org:Cy"], seed=3)
    assert game.mail(ANN, "BID 0").status == "accepted"  # entry 2
    run(game, gm.deadline, 48.0, None, "holidays")  # entry 3: no state an undo takes back
    refused(game, None, "nothing to undo: the game stands as entry 2 left it")
    refused(game, None, "to go further back, give --to 1")
    refused(
        game, 3, "nothing to undo: entry 3 is the latest; to go further back, give --to one of 1-2"
    )
    run(game, undoing.undo, 1, "misclick")  # an earlier one still goes back
    assert counts(game.engine, game.id)[0] == 4


def test_an_undo_that_sets_aside_early_orders_alone_still_goes_back(table) -> None:
    game = table("showmanager", [f"{ANN}:Ann", f"{BO}:Bo"], seed=11, first_player=ANN)
    assert game.mail(BO, "REFRESH").status == "queued"  # early: the state is as it was
    run(game, undoing.undo, 1, "Bo asked")
    with Session(game.engine) as session:
        latest = session.exec(
            select(HistoryRow)
            .where(col(HistoryRow.game_id) == game.id)
            .order_by(col(HistoryRow.seq).desc())
        ).first()
    assert latest is not None and latest.summary.startswith("undo to entry 1")


@pytest.mark.parametrize(
    ("to", "words"),
    [
        (-1, "has no history entry -1: the only entry is 1"),
        (0, "has no history entry 0: the only entry is 1"),
        ("abc", "--to 'abc' is not an entry number: the only entry is 1"),
    ],
)
def test_an_entry_the_game_has_not_is_named_with_the_only_one(table, to, words) -> None:
    game = table("bigtime", [f"{ANN}:Ann", f"{BO}:Bo", "cy@example.org:Cy"], seed=3)
    refused(game, to, words)
    assert "1-1" not in words


def test_an_entry_the_game_has_not_is_named_with_the_range(table) -> None:
    game = table("bigtime", [f"{ANN}:Ann", f"{BO}:Bo", "cy@example.org:Cy"], seed=3)
    assert game.mail(ANN, "BID 0").status == "accepted"
    refused(game, "abc", "--to 'abc' is not an entry number: choose one of 1-2")
    refused(game, 7, "has no history entry 7: choose one of 1-2")
