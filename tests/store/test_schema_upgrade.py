"""Schema upgrades the game master controls: commands refuse a database behind or ahead of the
code in one line and change nothing; `pbem db upgrade` brings an old database to head, and its
games play on."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest
from alembic import command
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, inspect, text
from sqlmodel import Session
from typer.testing import CliRunner

from pbem.cli import app
from pbem.games.rng import Rng
from pbem.moderator import gm
from pbem.moderator.desk import Desk
from pbem.moderator.loaded import load_game
from pbem.orders.format import order_text
from pbem.settings import Settings
from pbem.store import open_database, session_scope
from pbem.store.migrate import MIGRATIONS, alembic_config, schema_state

REVISION_0001 = Path(__file__).with_name("data") / "revision_0001.sql"
HEAD = ScriptDirectory(str(MIGRATIONS)).get_current_head()
runner = CliRunner()


@pytest.fixture
def old_database(tmp_path: Path) -> str:
    """A SQLite file made by revision 0001, holding a running game of each kind."""
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as connection:
        connection.executescript(REVISION_0001.read_text(encoding="utf-8"))
    return f"sqlite:///{path}"


def pbem(url: str, *words: str) -> tuple[int, str]:
    result = runner.invoke(app, list(words), env={"PBEM_DATABASE_URL": url})
    return result.exit_code, result.output


def digest(url: str) -> str:
    """The database's content (schema and rows); SQLite's journal mode may change on connect."""
    with sqlite3.connect(url.removeprefix("sqlite:///")) as connection:
        dump = "\n".join(connection.iterdump())
    return hashlib.sha256(dump.encode()).hexdigest()


def revision(url: str) -> str:
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return str(connection.execute(text("SELECT version_num FROM alembic_version")).one()[0])
    finally:
        engine.dispose()


@pytest.mark.parametrize(
    "words",
    [
        ["games"],
        ["show", "bt-1"],
        ["history", "sm-1"],
        ["start", "--game", "bigtime", "--player", "a@example.org", "--player", "b@example.org"],
        ["gm", "pause", "bt-1"],
        ["run", "--once"],
    ],
)
def test_a_database_behind_is_refused_in_one_line_and_left_unchanged(
    old_database: str, words: list[str]
) -> None:
    before = digest(old_database)
    status, output = pbem(old_database, *words)
    assert status == 1
    lines = [line for line in output.splitlines() if line.startswith("Error")]
    assert lines == [
        f"Error: the database is at revision 0001, behind {HEAD}: run `pbem db upgrade`"
    ]
    assert "Traceback" not in output
    assert digest(old_database) == before
    assert revision(old_database) == "0001"


def test_db_current_says_where_the_database_stands(old_database: str) -> None:
    status, output = pbem(old_database, "db", "current")
    assert status == 1
    assert f"at revision 0001, behind {HEAD}: run `pbem db upgrade`" in output


def test_db_upgrade_brings_an_old_database_to_head_and_its_games_play_on(
    old_database: str,
) -> None:
    status, output = pbem(old_database, "db", "upgrade")
    assert status == 0, output
    assert f"upgraded from 0001 to {HEAD}" in output
    assert revision(old_database) == HEAD
    engine = create_engine(old_database)
    assert "apscheduler_pbem" in inspect(engine).get_table_names()
    engine.dispose()
    status, output = pbem(old_database, "games")
    assert status == 0 and "bt-1" in output and "sm-1" in output
    assert pbem(old_database, "db", "upgrade")[1].strip().endswith("nothing to do")

    engine = open_database(old_database)
    for game_id in ("bt-1", "sm-1"):
        play_to_the_end(engine, Settings(database_url=old_database), game_id)
    engine.dispose()
    status, output = pbem(old_database, "games")
    assert output.count("finished") == 2, output


def play_to_the_end(engine: Engine, settings: Settings, game_id: str) -> None:
    """Random legal orders, entered through the GM's order command, until the game is over."""
    rng = Rng.from_seed(3)
    for _ in range(2_000):
        with Session(engine) as session:
            game = load_game(session, game_id)
        if game.engine.is_over(game.state):
            return
        seat = game.engine.awaiting(game.state)[0]
        actions = game.engine.random_actions(game.state, seat, rng)
        with session_scope(engine) as session:
            gm.order(
                Desk(session, settings), game_id, game.seat(seat).address, order_text(actions), None
            )
    raise AssertionError(f"{game_id} did not finish")


def test_a_database_ahead_of_the_code_is_refused_in_one_line(old_database: str) -> None:
    pbem(old_database, "db", "upgrade")
    with sqlite3.connect(old_database.removeprefix("sqlite:///")) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '0999'")
    for words in (["run", "--once"], ["games"], ["db", "upgrade"]):
        status, output = pbem(old_database, *words)
        assert status == 1
        errors = [line for line in output.splitlines() if line.startswith("Error")]
        assert len(errors) == 1 and "0999" in errors[0] and f"up to {HEAD}" in errors[0], output
        assert "Traceback" not in output
    assert revision(old_database) == "0999"


def test_reading_commands_do_not_create_a_database(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'none.sqlite3'}"
    for words in (["games"], ["show", "bt-1"], ["history", "bt-1"], ["gm", "pause", "bt-1"]):
        status, output = pbem(url, *words)
        assert status == 1
        assert "no pbem database" in output and "pbem start" in output
    assert list(tmp_path.iterdir()) == []


def test_the_upgrade_drops_alarm_jobs_left_by_revision_0001(db_url: str) -> None:
    """Revision 0002 moved the alarms' function; the old jobs go, the daemon sets them again."""
    engine = create_engine(db_url)
    try:
        with engine.begin() as connection:
            command.upgrade(alembic_config(connection), "0001")
            blob = "BYTEA" if connection.dialect.name == "postgresql" else "BLOB"
            connection.execute(
                text(
                    "CREATE TABLE apscheduler_pbem (id VARCHAR(191) PRIMARY KEY, "
                    f"next_run_time FLOAT, job_state {blob})"
                )
            )
            connection.execute(text("INSERT INTO apscheduler_pbem (id) VALUES ('deadline:bt-1')"))
        assert schema_state(engine).behind
        open_database(db_url).dispose()
        assert schema_state(engine).at_head
        with engine.connect() as connection:
            left = connection.execute(text("SELECT count(*) FROM apscheduler_pbem")).one()[0]
        assert left == 0
    finally:
        engine.dispose()
