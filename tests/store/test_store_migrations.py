"""The Alembic migrations build exactly the SQLModel schema, from empty, on both databases."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, inspect

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
    assert inspect(create_engine(db_url)).get_table_names() == []
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


def test_daemons_starting_together_on_postgresql_migrate_once(postgres_url: str) -> None:
    def start() -> str | None:
        engine = open_database(postgres_url)
        try:
            return current_revision(engine)
        finally:
            engine.dispose()

    with ThreadPoolExecutor(max_workers=4) as pool:
        revisions = list(pool.map(lambda _: start(), range(4)))
    assert revisions == [head_revision()] * 4
