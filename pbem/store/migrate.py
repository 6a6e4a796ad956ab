"""Bring a database to the newest schema, safely when several processes start at once."""

from __future__ import annotations

import threading
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, text

MIGRATIONS = Path(__file__).with_name("migrations")

# Any fixed 64-bit number: PostgreSQL advisory locks are named by integers. This one is "pbem".
MIGRATION_LOCK_KEY = 0x7062656D

# Alembic keeps its running context in module globals, so one process migrates one at a time.
_MIGRATING = threading.Lock()


def alembic_config(connection: Connection) -> Config:
    """Alembic's configuration without an alembic.ini: the scripts live inside the package."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def upgrade_to_head(engine: Engine) -> None:
    """Apply every migration not yet applied, in one transaction where the database allows.

    On PostgreSQL a transaction-scoped advisory lock makes a second daemon wait until the first
    has finished, after which it finds nothing left to do.
    """
    with _MIGRATING, engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(
                text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK_KEY}
            )
        command.upgrade(alembic_config(connection), "head")
