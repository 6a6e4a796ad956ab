"""Every command fed its bad inputs: one line on stderr naming the value (and what is accepted),
exit status 1 for a refused request and 2 for a usage error, and never a traceback."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from pbem.moderator.desk import Desk
from pbem.moderator.start import GameRequest, PlayerSpec, start_game
from pbem.settings import Settings
from pbem.store import open_database, session_scope
from tests.cli.conftest import Pbem, Ran

BT3 = ("--game", "bigtime", "--player", "ann@example.org", "--player", "bo@example.org")
BT3 = (*BT3, "--player", "cy@example.org")
REFUSED, USAGE = 1, 2
HUGE, INT64 = "99999999999999999999", 2**63 - 1  # past, and at, the database's 64 bits

# (arguments, exit status, words the message must hold)
CASES: list[tuple[tuple[str, ...], int, str]] = [
    (("simulate", "chess"), USAGE, "showmanager, bigtime"),
    (("simulate", "bigtime", "--variant", "nah"), USAGE, "standard"),
    (("simulate", "showmanager", "--variant", "premiere", "--players", "3"), USAGE, "4, 5, 6"),
    (("simulate", "bigtime", "--players", "x"), USAGE, "--players"),
    (("simulate", "bigtime", "--games", "0"), USAGE, "at least 1"),
    (("start",), USAGE, "--game"),
    (("start", "--game", "chess", "--player", "ann@example.org"), USAGE, "showmanager"),
    (("start", *BT3, "--policy", "nah"), USAGE, "wait, default, skip"),
    (("start", *BT3, "--press", "loud"), USAGE, "all, public, none"),
    (("start", *BT3, "--deadline", "-3"), USAGE, "from 0.1 to 8784"),
    (("start", *BT3, "--deadline", "0.0001"), USAGE, "deadline '0.0001': write a number of hours"),
    (("start", *BT3, "--deadline", "8785"), USAGE, "from 0.1 to 8784"),
    (("start", *BT3, "--deadline", "soon"), USAGE, "from 0.1 to 8784"),
    (("start", *BT3, "--away", "nah"), USAGE, "default, wait"),
    (("start", *BT3, "--max-away-days", "-1"), USAGE, "from 0 (no absences) to 366"),
    (("start", *BT3, "--max-away-days", "many"), USAGE, "--max-away-days"),
    (("start", *BT3, "--deadline", "nan"), USAGE, "from 0.1 to 8784"),
    (("start", *BT3, "--deadline", "inf"), USAGE, "from 0.1 to 8784"),
    (("start", *BT3, "--variant", "nah"), USAGE, "standard"),
    (("start", *BT3, "--data", "/nonexistent/acts.csv"), USAGE, "does not exist"),
    (("start", *BT3, "--first-player", "zed@example.org"), USAGE, "zed@example.org"),
    (("start", "--game", "bigtime", "--player", "ann@example.org"), USAGE, "2, 3, 4"),
    (("start", "--game", "bigtime", "--player", "ann at home"), USAGE, "EMAIL:NAME"),
    (
        ("start", "--game", "bigtime", "--player", "a@example.org:Ann", "--player", "b@x.org:ann"),
        USAGE,
        "two players would be called 'ann'",
    ),
    (
        ("start", "--game", "bigtime", "--player", "a@example.org:Ann", "--bot", "ann"),
        USAGE,
        "two players would be called 'ann'",
    ),
    (("games", "--bogus"), USAGE, "--bogus"),
    (("show", "nope"), REFUSED, "nope"),
    (("archive",), USAGE, "GAME"),
    (("archive", "nope"), REFUSED, "no game 'nope'"),
    (("archive", "bt-1"), REFUSED, "bt-1 is still being played"),
    (("show", "nope", "--json"), REFUSED, "nope"),
    (("history", "nope"), REFUSED, "nope"),
    (("history", "nope", "--json"), REFUSED, "nope"),
    (("replay", "/nonexistent.yaml"), USAGE, "/nonexistent.yaml"),
    (("run", "--once", "--wait", "-1"), USAGE, "--wait"),
    (("demo", "--game", "chess"), USAGE, "showmanager, bigtime"),
    (("demo", "--players", "9"), USAGE, "2, 3, 4 players, not 9"),
    (("demo", "--players", "999"), USAGE, "not 999"),
    (("demo", "--players", "-1"), USAGE, "--players': input should be greater than or equal to 1"),
    (("config", "check", "--probe-timeout", "0"), USAGE, "--probe-timeout"),
    (("config", "nope"), USAGE, "nope"),
    (("gm", "nope"), USAGE, "nope"),
    (("gm", "order", "bt-9", "--as", "Ann", "HIRE 0"), REFUSED, "bt-9"),
    (("gm", "order", "sm-1", "HIRE 0"), USAGE, "--as"),
    (("gm", "order", "sm-1", "--as", "Zed", "HIRE 0"), REFUSED, "1 Ann <ann@example.org>"),
    (("gm", "order", "sm-1", "--as", "Ann", "BUY A CASTLE"), REFUSED, "BUY"),
    # As `pbem history` shows them (play-testing): one line, not three.
    (
        ("gm", "order", "bt-1", "--as", "Bo", "BID 0 / AM A1 / PM P1"),
        REFUSED,
        "Error: write one order a line, a line break between them as in an email, not ' / '",
    ),
    (("gm", "order", "bt-1", "--as", "Bo", "BID 0/AM A1"), REFUSED, "Error: write one order a"),
    (
        ("gm", "order", "sm-1", "--as", "Bo", "STAGE Wolf 1 2 3"),
        REFUSED,
        'Bo\'s orders are refused at line 1 ("STAGE Wolf 1 2 3"); Bo would be told: "card #1 is '
        "not in your hand",
    ),
    (("gm", "undo", "sm-1", "--to", "99"), REFUSED, "entry 99: the only entry is 1"),
    (("gm", "undo", "sm-1", "--to", "99999999999999999999"), REFUSED, "the only entry is 1"),
    (("gm", "undo", "sm-1", "--to", "x"), USAGE, "--to 'x' is not an entry number"),
    (("gm", "set-money", "bt-1", "Ann", "5"), REFUSED, "The Big Time!"),
    (("gm", "set-money", "sm-1", "Ann", "--", "-5"), USAGE, "money -5: write a number from 0"),
    (("gm", "set-money", "sm-1", "Ann", "-5"), USAGE, "money -5: write a number from 0 to 99999"),
    (("gm", "set-value", "sm-1", "Ann", "WOLF", "-5"), USAGE, "value -5: write a number from 0"),
    (
        ("gm", "set-money", "sm-1", "Ann", "99999999999999999999"),
        USAGE,
        "money 99999999999999999999: write a number from 0 to 99999",
    ),
    (("gm", "set-value", "sm-1", "Ann", "WOLF", "100000"), USAGE, "value 100000: write a number"),
    (("gm", "set-money", "sm-1", "Ann", "lots"), USAGE, "money 'lots': write a number from 0"),
    (("gm", "set-value", "sm-1", "Ann", "WOLF#x", "3"), REFUSED, "MUSICAL#N"),
    (("gm", "set-value", "sm-1", "Ann", "WOLF#1", "3"), REFUSED, "Ann has no"),
    (("gm", "replace", "bt-1", "Bo", "ann@example.org"), REFUSED, "already plays seat 1"),
    (("gm", "replace", "bt-1", "Bo", "not-an-address"), USAGE, "EMAIL:NAME"),
    (("gm", "replace", "bt-1", "Zed", "zed@example.org"), REFUSED, "Zed"),
    (("gm", "replace", "bt-1", "Bo", "zed@example.org:ANN"), REFUSED, "called 'ANN'"),
    (("gm", "remove", "bt-1", "Robo"), REFUSED, "already played by the computer"),
    (("gm", "remove", "bt-1", "4"), REFUSED, "seat number"),
    (("gm", "back", "bt-1", "Ann"), REFUSED, "Ann is not away in bt-1"),
    (("gm", "back", "bt-1", "Zed"), REFUSED, "Zed"),
    (("gm", "pause", "bt-9"), REFUSED, "bt-9"),
    (("gm", "resume", "bt-1"), REFUSED, "not paused"),
    (("gm", "deadline", "bt-1"), USAGE, "hours"),
    (("gm", "deadline", "bt-1", "--", "-5"), USAGE, "from 0.1 to 8784"),
    (("gm", "deadline", "bt-1", "-5"), USAGE, "from 0.1 to 8784"),
    (("gm", "deadline", "bt-1", "nan"), USAGE, "from 0.1 to 8784"),
    (
        ("gm", "deadline", "bt-1", "0.0001"),
        USAGE,
        "deadline '0.0001': write a number of hours from 0.1 to 8784, or none",
    ),
    (("gm", "deadline", "bt-1", "0.09"), USAGE, "from 0.1 to 8784"),
    (("gm", "deadline", "bt-1", "8784.5"), USAGE, "from 0.1 to 8784"),
    (("gm", "deadline", "bt-1", "soon"), USAGE, "or none"),
    (("gm", "deadline", "bt-1", "5", "--policy", "nah"), USAGE, "wait, default, skip"),
    (("gm", "resend", "bt-1", "Zed"), REFUSED, "Zed"),
    (("gm", "watch", "bt-1", "not-an-address"), USAGE, "not an email address"),
    (("gm", "watch", "bt-1", "wat@bots.invalid"), USAGE, "no mail can reach a .invalid domain"),
    (("gm", "watch", "bt-1", "\u00fcn\u00ef@ex\u00e4mple.org"), USAGE, "plain ASCII letters"),
    (("start", "--game", "bigtime", "--player", "a@x.invalid"), USAGE, "a .invalid domain"),
    (("gm", "watch", "bt-9", "fan@example.org"), REFUSED, "bt-9"),
    (("gm", "watch", "bt-1", "Ann@example.org"), REFUSED, "plays in bt-1"),
    (("gm", "watch", "bt-1", "PBEM+bt-1.x@localhost"), REFUSED, "the moderator's own address"),
    (("gm", "unwatch", "bt-1", "fan@example.org"), REFUSED, "does not watch bt-1"),
    (("db", "nope"), USAGE, "nope"),
    (("db", "upgrade", "--name", "Bad-Name"), USAGE, "lowercase letters"),
    (("outbox", "retry", "abc"), USAGE, "ID"),
    (("outbox", "retry", "99999"), REFUSED, "no email 99999"),
    (("outbox", "--status", "nah"), USAGE, "pending, deferred, failed, sent or kept"),
    # Play-testing: a 20-digit number reached SQLite and ended in an OverflowError traceback.
    (("outbox", "retry", HUGE), USAGE, f"ID {HUGE}: write a whole number from 1 to {INT64}"),
    (("outbox", "retry", "--", "-3"), USAGE, f"ID -3: write a whole number from 1 to {INT64}"),
    (("outbox", "--limit", "0"), USAGE, f"--limit 0: write a whole number from 1 to {INT64}"),
    (("outbox", "--limit", HUGE), USAGE, f"--limit {HUGE}: write a whole number from 1"),
    (("start", *BT3, "--seed", HUGE), USAGE, f"seed {HUGE}: write a whole number from 0 to"),
    (("start", *BT3, "--seed", "-1"), USAGE, f"seed -1: write a whole number from 0 to {INT64}"),
    (("demo", "--seed", HUGE), USAGE, f"seed {HUGE}: write a whole number from 0 to {INT64}"),
    (("status", "--bogus"), USAGE, "--bogus"),
    (("auth", "nope"), USAGE, "nope"),
    (("auth", "login", "--provider", "nope"), USAGE, "--user"),
    (
        ("simulate", "bigtime", "--players", "4", "--seats", "strong,clever,sensible,sensible"),
        USAGE,
        "strong, sensible, random",
    ),
    (
        ("simulate", "bigtime", "--players", "4", "--seats", "strong,sensible"),
        USAGE,
        "one level per seat",
    ),
    (("start", *BT3, "--bot", "Cleo:genius"), USAGE, "strong, sensible, random"),
]
# Through the installed console script, as a game master's shell runs it.
# The cases of issue 11's report.
REPORTED = {
    ("start", *BT3, "--deadline", "-3"),
    ("start", *BT3, "--policy", "nah"),
    ("gm", "deadline", "bt-1", "--", "-5"),
    ("gm", "deadline", "bt-1", "nan"),
    ("gm", "deadline", "bt-1"),
    ("simulate", "showmanager", "--variant", "premiere", "--players", "3"),
    ("replay", "/nonexistent.yaml"),
    ("history", "nope"),
    ("gm", "remove", "bt-1", "Robo"),
}
SCRIPT_CASES = [case for case in CASES if case[0] in REPORTED]


@pytest.fixture(scope="module")
def games_env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """A database with bt-1 (Ann, Bo and the computer player Robo) and sm-1 (Ann, Bo)."""
    url = f"sqlite:///{tmp_path_factory.mktemp('games')}/pbem.sqlite3"
    engine = open_database(url)
    seats = {
        "bigtime": (
            PlayerSpec("ann@example.org", "Ann"),
            PlayerSpec("bo@example.org", "Bo"),
            PlayerSpec("robo@bots.invalid", "Robo", "Robo"),
        ),
        "showmanager": (PlayerSpec("ann@example.org", "Ann"), PlayerSpec("bo@example.org", "Bo")),
    }
    with session_scope(engine) as session:
        for game, players in seats.items():
            start_game(Desk(session, Settings()), GameRequest(game, players, seed=1))
    engine.dispose()
    yield {"PBEM_DATABASE_URL": url}


def assert_one_line(ran: Ran, code: int, words: str) -> None:
    lines = [line for line in ran.err.splitlines() if line.strip()]
    assert "Traceback" not in ran.out + ran.err
    assert ran.code == code, (ran.code, ran.err)
    assert len(lines) == 1, ran.err
    assert lines[0].startswith("Error: ") and words.lower() in lines[0].lower(), lines[0]


@pytest.mark.parametrize(("args", "code", "words"), CASES, ids=[" ".join(c[0]) for c in CASES])
def test_bad_input_is_one_line_and_an_exit_status(
    pbem: Pbem, games_env: dict[str, str], args: tuple[str, ...], code: int, words: str
) -> None:
    assert_one_line(pbem(*args, env=games_env), code, words)


@pytest.mark.parametrize(
    ("args", "code", "words"), SCRIPT_CASES, ids=[" ".join(c[0]) for c in SCRIPT_CASES]
)
def test_the_console_script_answers_bad_input_the_same(
    pbem_script: Pbem, games_env: dict[str, str], args: tuple[str, ...], code: int, words: str
) -> None:
    assert len(SCRIPT_CASES) == len(REPORTED)
    assert_one_line(pbem_script(*args, env=games_env), code, words)


def test_a_value_out_of_range_changes_nothing_and_the_bounds_are_taken(pbem: Pbem) -> None:
    # Play-testing: a deadline of 0.0001 hours and 20-digit money were taken.
    sm2 = ("--game", "showmanager", "--player", "ann@example.org:Ann", "--player", "bo@x.org:Bo")
    game = pbem("start", *sm2, "--seed", "1").out.strip()
    before = (pbem("show", game, "--json").out, pbem("history", game, "--json").out)
    for args in (
        ("set-money", game, "Ann", "99999999999999999999"),
        ("set-money", game, "Ann", "100000"),
        ("set-value", game, "Ann", "WOLF", "100000"),
        ("deadline", game, "0.0001"),
        ("deadline", game, "0.0999"),
    ):
        assert pbem("gm", *args).code == USAGE, args
    assert (pbem("show", game, "--json").out, pbem("history", game, "--json").out) == before
    for args in (("set-money", game, "Ann", "99999"), ("deadline", game, "0.1")):
        assert pbem("gm", *args).code == 0, args
    shown = json.loads(pbem("show", game, "--json").out)
    assert shown["deadline_hours"] == 0.1 and "99999" in pbem("show", game).out
    assert pbem("start", *BT3, "--deadline", "0.1").code == 0


def test_a_transcript_that_is_not_one_is_refused_in_one_line(pbem: Pbem, tmp_path: Path) -> None:
    chess = tmp_path / "chess.yaml"
    chess.write_text("game: chess\nplayers: []\nmessages: []\n", encoding="utf-8")
    assert_one_line(pbem("replay", str(chess)), REFUSED, "showmanager or bigtime")
    broken = tmp_path / "broken.yaml"
    broken.write_text("game: bigtime\nplayers: [{email: ann}]\nmessages: []\n", encoding="utf-8")
    assert_one_line(pbem("replay", str(broken)), REFUSED, "cannot start")


def test_an_inbox_that_is_not_a_maildir_stops_the_daemon_in_one_line(
    pbem: Pbem, tmp_path: Path
) -> None:
    (tmp_path / "mail").mkdir()
    (tmp_path / "mail" / "inbox").write_text("not a Maildir")
    ran = pbem("run", "--once", env={"PBEM_MAILDIR": str(tmp_path / "mail")})
    assert_one_line(ran, REFUSED, f"cannot use {tmp_path / 'mail' / 'inbox'} as a Maildir")


def test_a_malformed_mail_server_url_stops_the_daemon_in_one_line(pbem: Pbem) -> None:
    ran = pbem("run", "--once", env={"PBEM_IMAP_URL": "garbage"})
    assert_one_line(ran, USAGE, "imap://")


def test_a_missing_config_file_is_one_line_for_any_command(pbem: Pbem) -> None:
    ran = pbem("games", env={"PBEM_CONFIG": "/nonexistent/pbem.toml"})
    assert_one_line(ran, USAGE, "/nonexistent/pbem.toml")
