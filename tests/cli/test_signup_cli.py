"""`pbem open`, `pbem gm start` and `pbem gm close` on the command line: the id and join address
printed, the open game in `pbem games`, and bad input told in one line with its exit status."""

from __future__ import annotations

import json
import os

import pytest

from pbem.store import SignupPlayerRow, open_database, session_scope
from tests.cli.conftest import Pbem
from tests.cli.test_bad_input import REFUSED, USAGE, assert_one_line

OPEN = ("open", "--game", "bigtime")
CASES: list[tuple[tuple[str, ...], int, str]] = [
    (("open",), USAGE, "--game"),
    (("open", "--game", "chess"), USAGE, "showmanager, bigtime"),
    ((*OPEN, "--variant", "nah"), USAGE, "standard"),
    ((*OPEN, "--seats", "3-9"), USAGE, "2-4"),
    ((*OPEN, "--seats", "many"), USAGE, "FEWEST-MOST"),
    ((*OPEN, "--deadline", "-3"), USAGE, "from 0.1 to 8784"),
    ((*OPEN, "--deadline", "0.01"), USAGE, "deadline '0.01': write a number of hours from 0.1"),
    ((*OPEN, "--policy", "nah"), USAGE, "wait, default, skip"),
    ((*OPEN, "--start-at", "soon"), USAGE, "2026-12-24 18:00"),
    ((*OPEN, "--start-at", "2000-01-01 10:00"), USAGE, "has passed"),
    ((*OPEN, "--start-at", "2099-01-01 10:00", "--start-when-full"), USAGE, "one start rule"),
    (("gm", "start", "bt-9"), REFUSED, "bt-9 is not open for sign-up"),
    (("gm", "close", "bt-9"), REFUSED, "bt-9 is not open for sign-up"),
]


@pytest.mark.parametrize(("args", "code", "words"), CASES, ids=[" ".join(c[0]) for c in CASES])
def test_bad_sign_up_input_is_one_line_and_an_exit_status(
    pbem: Pbem, args: tuple[str, ...], code: int, words: str
) -> None:
    pbem("open", "--game", "bigtime")  # a database to refuse in
    assert_one_line(pbem(*args), code, words)


def test_open_prints_the_id_and_join_address_and_games_lists_it(pbem: Pbem) -> None:
    ran = pbem(*OPEN, "--seats", "3-4", "--deadline", "48", env={"PBEM_ADDRESS": "pbem@host.org"})
    assert (ran.code, ran.out.split()) == (0, ["bt-1", "pbem+join-bt-1@host.org"])
    listed = json.loads(pbem("games", "--json").out)
    assert listed == [
        {
            "id": "bt-1",
            "game": "bigtime",
            "variant": "standard",
            "status": "open (3-4 seats)",
            "players": 0,
            "started": "",
        }
    ]
    assert_one_line(pbem("gm", "start", "bt-1"), REFUSED, "nobody has signed up")
    closed = pbem("gm", "close", "bt-1", "--why", "no takers", "--json")
    assert json.loads(closed.out)["summary"] == "sign-up closed"
    assert json.loads(pbem("games", "--json").out) == []


def _sign_up(names: tuple[str, ...]) -> None:
    """Players signed up for bt-1 as JOIN leaves them (the database of the `pbem` fixture)."""
    engine = open_database(os.environ["PBEM_DATABASE_URL"])
    with session_scope(engine) as session:
        for name in names:
            session.add(
                SignupPlayerRow(signup_id="bt-1", address=f"{name.lower()}@example.org", name=name)
            )
    engine.dispose()


def test_show_and_history_of_an_open_sign_up_say_it_has_not_started(pbem: Pbem) -> None:
    # Play-testing: both said "no game 'sm-2'" while `pbem games` listed it as open.
    pbem(*OPEN, "--seats", "3-4", "--start-at", "2099-12-04 15:40")
    _sign_up(("Ann", "Cy", "Bo"))
    not_started = "bt-1 is open for sign-up (3 of 3-4 seats taken) and has not started"
    shown = pbem("show", "bt-1")
    assert_one_line(shown, REFUSED, f"{not_started}: no board or history yet")
    assert "bt-1: The Big Time! (standard), 3 of 3-4 seats taken" in shown.out
    assert "starts 2099-12-04 15:40 UTC with the players signed up (at least 3)" in shown.out
    assert "Signed up: Ann, Cy, Bo." in shown.out and "ann@example.org" not in shown.out
    as_json = json.loads(pbem("show", "bt-1", "--json").out)
    assert (as_json["status"], as_json["min_seats"], as_json["max_seats"]) == ("open", 3, 4)
    assert [p["name"] for p in as_json["players"]] == ["Ann", "Cy", "Bo"]
    assert_one_line(pbem("history", "bt-1"), REFUSED, not_started)
    assert_one_line(pbem("history", "bt-1", "--json"), REFUSED, not_started)
    assert_one_line(pbem("history", "bt-2"), REFUSED, "no game 'bt-2'; `pbem games` lists them")


def _help(pbem: Pbem, command: str) -> str:
    """A command's --help as one line of words, whatever the terminal's width wrapped."""
    return " ".join(pbem(command, "--help").out.replace("│", " ").split())


def test_open_and_start_help_list_each_games_variants_and_the_start_rules(pbem: Pbem) -> None:
    variants = "showmanager: standard, queen, premiere; bigtime: standard"
    for command in ("open", "start"):
        assert variants in _help(pbem, command), command
    told = _help(pbem, "open")
    assert 'in the future: "2026-12-24 18:00" (UTC), or with an offset' in told
    assert "the game waits for MOST; FEWEST counts only at the --start-at date or with" in told
