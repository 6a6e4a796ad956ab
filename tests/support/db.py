"""Database fixtures for every test folder.

`db_url` is an empty database and `db_engine` one migrated by `open_database`; both run each test
twice, on SQLite (a file in tmp_path) and on PostgreSQL (a fresh database on 127.0.0.1:5432,
dropped afterwards). `postgres_url` is the PostgreSQL case alone. Without a reachable server the
PostgreSQL cases skip, unless $CI is set: then they fail, so CI cannot pass without PostgreSQL.

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

from pbem.store import open_database

POSTGRES_ADMIN_URL = os.environ.get(
    "PBEM_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
)


def running_under_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


@pytest.fixture(scope="session")
def postgres_admin() -> Iterator[Engine]:
    """A connection pool to the server's maintenance database, for creating test databases."""
    engine = create_engine(
        POSTGRES_ADMIN_URL, isolation_level="AUTOCOMMIT", connect_args={"connect_timeout": 5}
    )
    try:
        with engine.connect():
            pass
    except OperationalError as exc:
        engine.dispose()
        message = f"PostgreSQL unreachable at {make_url(POSTGRES_ADMIN_URL)!r}: {exc}"
        if running_under_ci():
            pytest.fail(message)
        pytest.skip(message)
    yield engine
    engine.dispose()


@pytest.fixture
def postgres_url(postgres_admin: Engine) -> Iterator[str]:
    """The URL of a new, empty PostgreSQL database, dropped after the test."""
    name = f"pbem_test_{uuid.uuid4().hex[:16]}"
    with postgres_admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(POSTGRES_ADMIN_URL).set(database=name).render_as_string(
            hide_password=False
        )
    finally:
        with postgres_admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


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
