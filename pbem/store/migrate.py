"""The database's schema revision: reading it, checking it against this code, and upgrading it
(safely when several processes start at once)."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util import CommandError
from sqlalchemy import Connection, Engine, text

from pbem.store.errors import SchemaMismatch

MIGRATIONS = Path(__file__).with_name("migrations")

# Any fixed 64-bit number: PostgreSQL advisory locks are named by integers. This one is "pbem".
MIGRATION_LOCK_KEY = 0x7062656D

# Alembic keeps its running context in module globals, so one process migrates one at a time.
_MIGRATING = threading.Lock()


def alembic_config(connection: Connection | None = None) -> Config:
    """Alembic's configuration without an alembic.ini: the scripts live inside the package."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


@dataclass(frozen=True)
class SchemaState:
    """Where a database stands: `current` None is an empty database (no pbem tables yet)."""

    current: str | None
    head: str
    known: bool

    @property
    def empty(self) -> bool:
        return self.current is None

    @property
    def at_head(self) -> bool:
        return self.current == self.head

    @property
    def behind(self) -> bool:
        return self.known and not self.empty and not self.at_head

    @property
    def ahead(self) -> bool:
        return not self.known

    def describe(self) -> str:
        if self.empty:
            return f"empty (no pbem tables); this pbem creates revision {self.head}"
        if self.at_head:
            return f"at revision {self.current}, the newest this pbem knows"
        if self.behind:
            return f"at revision {self.current}, behind {self.head}: run `pbem db upgrade`"
        return (
            f"at revision {self.current}, which this pbem does not know (it knows up to "
            f"{self.head}): a newer pbem made it; install that version"
        )


def schema_state(engine: Engine) -> SchemaState:
    script = ScriptDirectory.from_config(alembic_config())
    head = script.get_current_head()
    assert head is not None, "pbem ships at least one migration"
    with engine.connect() as connection:
        current = MigrationContext.configure(connection).get_current_revision()
    try:
        known = current is None or script.get_revision(current) is not None
    except CommandError:
        known = False
    return SchemaState(current=current, head=head, known=known)


def check_schema(engine: Engine) -> SchemaState:
    """The state, when this code can use the database as it is; else SchemaMismatch, one line."""
    state = schema_state(engine)
    if state.behind or state.ahead:
        raise SchemaMismatch(f"the database is {state.describe()}")
    return state


def upgrade_to_head(engine: Engine) -> None:
    """Apply every migration not yet applied, in one transaction where the database allows.

    On PostgreSQL a transaction-scoped advisory lock makes a second daemon wait until the first
    has finished, after which it finds nothing left to do.
    """
    state = schema_state(engine)
    if state.ahead:
        raise SchemaMismatch(f"the database is {state.describe()}")
    with _MIGRATING, engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(
                text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK_KEY}
            )
        command.upgrade(alembic_config(connection), "head")
