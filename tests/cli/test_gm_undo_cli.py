"""`pbem gm undo` with nothing to undo, and the numbers `pbem gm` and `pbem open` are typed, as a
game master reads their refusals: one line naming the value and the choices, nothing changed,
nobody mailed (play-testing: an undo right after the start mailed everyone that the game moved
back; `--to -1` said "choose one of 1-1"; `--to abc` and `set-money Bo abc` said "Input should
be a valid integer", naming nothing; `--seats 4-3` said the game is for 2-4 players)."""

from __future__ import annotations

import json

import pytest

from tests.cli.conftest import Pbem
from tests.cli.test_bad_input import REFUSED, USAGE, assert_one_line

BT = ("--game", "bigtime", "--player", "ann@example.org:Ann", "--player", "bo@example.org:Bo")
BT = (*BT, "--player", "cy@example.org:Cy", "--seed", "3")
SM = ("--game", "showmanager", "--player", "ann@example.org:Ann", "--player", "bo@example.org:Bo")


def state(pbem: Pbem, game: str) -> tuple[int, int]:
    """The game's history entries and the emails in the outbox."""
    history = json.loads(pbem("history", game, "--json").out)
    outbox = pbem("outbox", "--json", "--all").out.splitlines()
    return len(history), len(outbox)


@pytest.fixture
def game(pbem: Pbem) -> str:
    started = pbem("start", *BT)
    assert started.code == 0, started.err
    return started.out.strip()


def test_undo_right_after_the_start_is_refused_and_mails_nobody(pbem: Pbem, game: str) -> None:
    before = state(pbem, game)
    ran = pbem("gm", "undo", game, "--why", "misclick")
    assert_one_line(ran, REFUSED, f"{game}: nothing to undo: no orders or changes since the game")
    assert ran.out == ""
    assert state(pbem, game) == before
    as_json = pbem("gm", "undo", game, "--json")
    assert json.loads(as_json.out)["error"].endswith("no orders or changes since the game started")


@pytest.mark.parametrize(
    ("to", "code", "words"),
    [
        ("-1", REFUSED, "has no history entry -1: the only entry is 1"),
        # No game could take it: usage, as `gm deadline bt-1 soon` is.
        ("abc", USAGE, "--to 'abc' is not an entry number: the only entry is 1"),
        ("99999999999999999999", REFUSED, "entry 99999999999999999999: the only entry is 1"),
    ],
)
def test_an_entry_to_undo_to_is_named_with_the_entries_there_are(
    pbem: Pbem, game: str, to: str, code: int, words: str
) -> None:
    before = state(pbem, game)
    ran = pbem("gm", "undo", game, "--to", to)
    assert_one_line(ran, code, words)
    assert "1-1" not in ran.err and "valid integer" not in ran.err
    assert state(pbem, game) == before


def test_a_word_for_an_entry_is_told_the_range_once_there_are_more(pbem: Pbem, game: str) -> None:
    assert pbem("gm", "order", game, "BID 0", "--as", "Ann").code == 0
    ran = pbem("gm", "undo", game, "--to", "abc")
    assert_one_line(ran, USAGE, "--to 'abc' is not an entry number: choose one of 1-2")
    assert pbem("gm", "undo", game, "--to", "1").code == 0  # a number in range still goes


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("set-money", "sm-1", "Bo", "abc"), "money 'abc': write a number from 0 to 99999"),
        (("set-money", "sm-1", "Bo", "12.5"), "money '12.5': write a number from 0 to 99999"),
        (("set-money", "sm-1", "Bo", "-5"), "money -5: write a number from 0 to 99999"),
        (("set-value", "sm-1", "Bo", "WOLF#1", "x"), "value 'x': write a number from 0 to 99999"),
    ],
)
def test_money_and_values_that_are_no_numbers_are_named(
    pbem: Pbem, args: tuple[str, ...], words: str
) -> None:
    assert pbem("start", *SM).code == 0
    ran = pbem("gm", *args)
    assert_one_line(ran, USAGE, words)
    assert "valid integer" not in ran.err


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--seats", "4-3"), "--seats '4-3': write the fewest first, e.g. 3-4"),
        (
            ("--max-away-days", "many"),
            "--max-away-days 'many' is not a number of days from 0 (no absences) to 366",
        ),
        (("--max-away-days", "-1"), "--max-away-days -1 is not a number of days from 0"),
    ],
)
def test_open_names_a_bad_seat_range_or_number_of_days(
    pbem: Pbem, args: tuple[str, ...], words: str
) -> None:
    ran = pbem("open", "--game", "bigtime", *args)
    assert_one_line(ran, USAGE, words)
    assert "valid integer" not in ran.err
    games = pbem("games", "--json")  # no sign-up opened (nor, refused early, a database)
    assert games.code != 0 or json.loads(games.out) == []


def test_open_still_takes_the_days_as_a_number(pbem: Pbem) -> None:
    ran = pbem("open", "--game", "bigtime", "--max-away-days", "5", "--json")
    assert ran.code == 0, ran.err
    assert json.loads(ran.out)["id"] == "bt-1"
