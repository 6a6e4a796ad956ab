"""The Alembic migrations build exactly the SQLModel schema, from empty, on both databases."""

from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, inspect, text

from pbem.store import open_database
from pbem.store.migrate import MIGRATIONS, alembic_config, upgrade_to_head
from pbem.store.tables import METADATA


def head_revision() -> str:
    heads = ScriptDirectory(str(MIGRATIONS)).get_heads()
    assert len(heads) == 1, f"the migrations branch: heads {heads}"
    return heads[0]


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def test_opening_an_empty_database_creates_every_table_at_head(db_url: str) -> None:
    empty = create_engine(db_url)
    assert inspect(empty).get_table_names() == []
    empty.dispose()
    engine = open_database(db_url)
    try:
        tables = set(inspect(engine).get_table_names())
        assert tables == set(METADATA.tables) | {"alembic_version"}
        assert current_revision(engine) == head_revision()
    finally:
        engine.dispose()


def test_migrated_schema_matches_the_sqlmodel_tables(db_engine: Engine) -> None:
    with db_engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, METADATA) == []


def test_opening_a_migrated_database_again_changes_nothing(db_url: str) -> None:
    first = open_database(db_url)
    first.dispose()
    again = open_database(db_url)
    try:
        assert current_revision(again) == head_revision()
    finally:
        again.dispose()


def test_downgrade_to_empty_then_upgrade_restores_the_schema(db_engine: Engine) -> None:
    with db_engine.begin() as connection:
        command.downgrade(alembic_config(connection), "base")
    assert set(inspect(db_engine).get_table_names()) == {"alembic_version"}
    upgrade_to_head(db_engine)
    assert set(inspect(db_engine).get_table_names()) == set(METADATA.tables) | {"alembic_version"}


# Each daemon imports pbem first, says so, and opens the database only on "go", so that all of
# them reach the migration at the same moment.
DAEMON = """
import sys
from pbem.store import open_database
print("ready", flush=True)
sys.stdin.readline()
open_database(sys.argv[1])
"""


@pytest.mark.postgres
def test_daemons_starting_together_on_postgresql_migrate_once(postgres_url: str) -> None:
    daemons = [
        subprocess.Popen(
            [sys.executable, "-c", DAEMON, postgres_url],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(3)
    ]
    for daemon in daemons:
        assert daemon.stdout is not None and daemon.stdout.readline() == "ready\n"
    for daemon in daemons:
        assert daemon.stdin is not None
        daemon.stdin.write("go\n")
        daemon.stdin.flush()
    errors = [daemon.communicate(timeout=60)[1] for daemon in daemons]
    assert [daemon.returncode for daemon in daemons] == [0, 0, 0], errors
    engine = create_engine(postgres_url)
    try:
        assert current_revision(engine) == head_revision()
    finally:
        engine.dispose()


def test_threads_opening_one_database_together_all_succeed(db_url: str) -> None:
    def start(_: int) -> str | None:
        engine = open_database(db_url)
        try:
            return current_revision(engine)
        finally:
            engine.dispose()

    with ThreadPoolExecutor(max_workers=4) as pool:
        revisions = list(pool.map(start, range(4)))
    assert revisions == [head_revision()] * 4


# The columns that hold emails and game states; the test server is a PostgreSQL 15 with lz4.
LARGE_COLUMNS = [
    ("outbox", "raw"),
    ("inbound", "raw"),
    ("games", "state"),
    ("history", "state_after"),
    ("history", "events"),
]
COMPRESSION = text(
    "SELECT attcompression FROM pg_attribute"
    " WHERE attrelid = CAST(:table AS regclass) AND attname = :column"
)


@pytest.mark.postgres
def test_large_columns_are_compressed_with_lz4_on_postgresql(postgres_url: str) -> None:
    engine = open_database(postgres_url)
    try:
        with engine.connect() as connection:
            methods = {
                (table, column): connection.execute(
                    COMPRESSION, {"table": table, "column": column}
                ).scalar()
                for table, column in LARGE_COLUMNS
            }
        assert set(methods.values()) == {"l"}, methods
        with engine.begin() as connection:
            command.downgrade(alembic_config(connection), "0013")
        with engine.connect() as connection:
            raw = connection.execute(COMPRESSION, {"table": "outbox", "column": "raw"}).scalar()
        assert raw == ""  # the server's default_toast_compression again
    finally:
        engine.dispose()
