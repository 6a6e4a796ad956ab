"""`pbem open`, `pbem gm start` and `pbem gm close` on the command line: the id and join address
printed, the open game in `pbem games`, and bad input told in one line with its exit status."""

from __future__ import annotations

import json

import pytest

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
