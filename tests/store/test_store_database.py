"""Finding the database, opening it with the right settings, and the unit-of-work scope."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import StatementError

from pbem.store import (
    DATABASE_URL_VARIABLE,
    GameRow,
    StaleGame,
    StoreError,
    database_url,
    get_game,
    open_database,
    session_scope,
)
from tests.support.db import insert_game


def test_explicit_url_wins_over_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(DATABASE_URL_VARIABLE, "sqlite:///from-env.sqlite3")
    assert database_url("sqlite:///given.sqlite3") == "sqlite:///given.sqlite3"


def test_environment_url_is_used_when_none_is_given(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(DATABASE_URL_VARIABLE, "postgresql://postgres@127.0.0.1/pbem")
    assert database_url() == "postgresql://postgres@127.0.0.1/pbem"


def test_default_url_is_a_sqlite_file_in_the_working_directory(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(DATABASE_URL_VARIABLE, raising=False)
    assert database_url() == "sqlite:///pbem.sqlite3"


def test_unsupported_database_is_refused_by_name() -> None:
    with pytest.raises(StoreError, match="sqlite or postgresql"):
        open_database("mysql://user@127.0.0.1/pbem")


def test_sqlite_connections_use_wal_a_busy_timeout_and_foreign_keys(tmp_path: Path) -> None:
    engine = open_database(f"sqlite:///{tmp_path}/pbem.sqlite3")
    try:
        with engine.connect() as connection:
            assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
            assert connection.execute(text("PRAGMA foreign_keys")).scalar() == 1
            assert connection.execute(text("PRAGMA busy_timeout")).scalar_one() >= 1000
    finally:
        engine.dispose()


def test_in_memory_sqlite_keeps_its_schema_across_sessions() -> None:
    engine = open_database("sqlite://")
    try:
        with session_scope(engine) as session:
            game_id = insert_game(session).id
        with session_scope(engine) as session:
            assert get_game(session, game_id) is not None
    finally:
        engine.dispose()


@pytest.mark.postgres
def test_bare_postgresql_url_gets_the_installed_driver(postgres_url: str) -> None:
    bare = postgres_url.replace("postgresql+psycopg://", "postgresql://")
    engine = open_database(bare)
    try:
        assert engine.dialect.driver == "psycopg"
    finally:
        engine.dispose()


def test_session_scope_commits_when_the_block_ends(db_engine: Engine) -> None:
    with session_scope(db_engine) as session:
        game_id = insert_game(session).id
    with session_scope(db_engine) as session:
        assert get_game(session, game_id) is not None


def test_session_scope_rolls_back_when_the_block_raises(db_engine: Engine) -> None:
    with pytest.raises(RuntimeError), session_scope(db_engine) as session:
        game_id = insert_game(session).id
        raise RuntimeError("the moderator failed halfway")
    with session_scope(db_engine) as session:
        assert get_game(session, game_id) is None


def test_rows_stay_readable_after_the_scope(db_engine: Engine) -> None:
    with session_scope(db_engine) as session:
        game = insert_game(session)
    assert game.status == "running"


def test_every_save_bumps_the_game_version(db_engine: Engine) -> None:
    with session_scope(db_engine) as session:
        game = insert_game(session)
    first_version = game.version
    with session_scope(db_engine) as session:
        saved = session.get_one(GameRow, game.id)
        saved.state = '{"turn": 2}'
    assert saved.version == first_version + 1


def test_second_daemon_saving_the_same_game_version_is_refused(db_engine: Engine) -> None:
    with session_scope(db_engine) as session:
        game_id = insert_game(session).id
    with pytest.raises(StaleGame), session_scope(db_engine) as late:
        late_copy = late.get_one(GameRow, game_id)
        with session_scope(db_engine) as early:
            early.get_one(GameRow, game_id).state = '{"by": "early"}'
        late_copy.state = '{"by": "late"}'
    with session_scope(db_engine) as session:
        assert session.get_one(GameRow, game_id).state == '{"by": "early"}'


def test_times_come_back_aware_and_in_utc(db_engine: Engine) -> None:
    in_paris = datetime(2024, 3, 1, 18, 30, tzinfo=timezone(timedelta(hours=1)))
    with session_scope(db_engine) as session:
        game = insert_game(session)
        game.deadline_at = in_paris
    with session_scope(db_engine) as session:
        stored = session.get_one(GameRow, game.id).deadline_at
    assert stored == in_paris
    assert stored is not None and stored.tzinfo == UTC


def test_naive_times_are_refused(db_engine: Engine) -> None:
    with pytest.raises(StatementError, match="naive datetime"), session_scope(db_engine) as session:
        insert_game(session).deadline_at = datetime(2024, 3, 1, 18, 30)
