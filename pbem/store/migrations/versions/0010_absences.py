"""Absences: a game's away mode and cap on away days; a seat's absence and the days it took.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01 20:10:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

CHECK = "away_mode IN ('default', 'wait')"


def upgrade() -> None:
    # Not batch mode for games: on SQLite that copies the table and drops the old one, and the
    # drop would cascade to every seat and history entry. ADD COLUMN with a named CHECK is the
    # same statement on SQLite and PostgreSQL; the defaults fill the rows of running games.
    op.execute(
        "ALTER TABLE games ADD COLUMN away_mode VARCHAR(16) DEFAULT 'default' NOT NULL "
        f"CONSTRAINT ck_games_away_mode CHECK ({CHECK})"
    )
    op.add_column(
        "games", sa.Column("max_away_days", sa.Integer(), nullable=False, server_default="14")
    )
    op.add_column("seats", sa.Column("away_until", sa.Date(), nullable=True))
    op.add_column("seats", sa.Column("away_days", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    # DROP COLUMN, not batch mode, for the same reason (SQLite 3.35+ drops a column in place).
    for column in ("away_days", "away_until"):
        op.drop_column("seats", column)
    for column in ("max_away_days", "away_mode"):
        op.drop_column("games", column)
