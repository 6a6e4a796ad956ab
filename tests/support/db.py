"""Database fixtures for every test folder.

`db_url` is an empty database and `db_engine` one migrated by `open_database`; both run each test
twice, on SQLite (a file in tmp_path) and on PostgreSQL (127.0.0.1:5432: a fresh schema in a
database made for the test run and dropped after it). `postgres_url` is the PostgreSQL case
alone. Without a reachable server the PostgreSQL cases skip, unless $CI is set: then they fail,
so CI cannot pass without PostgreSQL.
`insert_game` adds a running game with its seats.

Use them from a conftest.py with `pytest_plugins = ["tests.support.db"]` (top level) or by
importing the fixture names.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, create_engine, make_url, text
from sqlalchemy.exc import OperationalError
from sqlmodel import Session

from pbem.store import GameRow, SeatRow, new_secret, next_game_id, open_database

POSTGRES_ADMIN_URL = os.environ.get(
    "PBEM_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
)


def running_under_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


@pytest.fixture(scope="session")
def postgres_admin() -> Iterator[Engine]:
    """The superuser, connected to a database made for this test run and dropped at its end."""
    server = create_engine(
        POSTGRES_ADMIN_URL, isolation_level="AUTOCOMMIT", connect_args={"connect_timeout": 5}
    )
    try:
        with server.connect():
            pass
    except OperationalError as exc:
        server.dispose()
        message = f"PostgreSQL unreachable at {make_url(POSTGRES_ADMIN_URL)!r}: {exc}"
        if running_under_ci():
            pytest.fail(message)
        pytest.skip(message)
    name = f"pbem_test_{uuid.uuid4().hex[:16]}"
    with server.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    engine = create_engine(server.url.set(database=name), isolation_level="AUTOCOMMIT")
    try:
        yield engine
    finally:
        engine.dispose()
        with server.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        server.dispose()


@pytest.fixture
def postgres_url(postgres_admin: Engine) -> str:
    """The URL of an empty PostgreSQL database for one test.

    A new schema, first on the search path, stands in for a new database: it is empty the same
    way, and costs milliseconds where CREATE DATABASE costs most of a second. It is left for the
    run's database to take with it, so a connection a test forgot cannot hold up the next test.
    """
    schema = f"test_{uuid.uuid4().hex[:16]}"
    with postgres_admin.connect() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = postgres_admin.url.update_query_dict({"options": f"-csearch_path={schema}"})
    return url.render_as_string(hide_password=False)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of an empty database, once per backend."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'pbem.sqlite3'}"
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
def db_engine(db_url: str) -> Iterator[Engine]:
    """An engine on a database migrated to the newest schema, once per backend."""
    engine = open_database(db_url)
    yield engine
    engine.dispose()


def insert_game(
    session: Session, game: str = "showmanager", players: int = 2, state: str = "{}"
) -> GameRow:
    """A running game with `players` human seats (player0@example.org, ...), flushed."""
    row = GameRow(
        id=next_game_id(session, game), game=game, variant="standard", seed=1, state=state
    )
    session.add(row)
    session.flush()
    secrets: list[str] = []
    for position in range(players):
        secrets.append(new_secret(secrets))
        session.add(
            SeatRow(
                game_id=row.id,
                position=position,
                address=f"player{position}@example.org",
                secret=secrets[-1],
            )
        )
    session.flush()
    return row
