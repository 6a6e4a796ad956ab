"""PostgreSQL: the large columns compressed with lz4 rather than pglz, where the server has it.

PostgreSQL compresses every value of more than about 2 KB as it stores it, by default with pglz:
each queued email (31 KB, text and HTML), each saved game state and the state kept with each
history entry. The moderator waits for that on every letter and every order. lz4 does the same
job for about the same size in a fraction of the time: queuing a 55 KB status email took 1.9 ms
instead of 3.2 (tests/moderator/golden/letter-12.eml, 400 times, queue and commit). Values
stored before keep their compression; PostgreSQL reads both. SQLite, and a PostgreSQL before
14 or built without lz4, are left as they are.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-02 20:20:00
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op
from sqlalchemy import Connection, text

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

LARGE_COLUMNS = (
    ("outbox", "raw"),
    ("inbound", "raw"),
    ("games", "state"),
    ("history", "state_after"),
    ("history", "events"),
)


def upgrade() -> None:
    _set_compression("lz4")


def downgrade() -> None:
    _set_compression("default")


def _set_compression(method: str) -> None:
    bind = op.get_bind()
    if bind.dialect.name != "postgresql" or not _has_lz4(bind):
        return
    for table, column in LARGE_COLUMNS:
        op.execute(f"ALTER TABLE {table} ALTER COLUMN {column} SET COMPRESSION {method}")


def _has_lz4(connection: Connection) -> bool:
    """Whether the server can compress with lz4 (PostgreSQL 14 and later, built with it)."""
    offered = connection.execute(
        text("SELECT enumvals FROM pg_settings WHERE name = 'default_toast_compression'")
    ).scalar()
    return offered is not None and "lz4" in offered
