"""Sign-up: the table a game opened for sign-up starts with (talk, watchers, absences).

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01 22:10:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

CHECKS = {
    "press": ("all", "press IN ('all', 'public', 'none')"),
    "away_mode": ("default", "away_mode IN ('default', 'wait')"),
}


def upgrade() -> None:
    # ADD COLUMN with a named CHECK, the same statement on SQLite and PostgreSQL (as 0010 does
    # for games); the defaults fill the rows of sign-ups already open.
    for column, (default, check) in CHECKS.items():
        op.execute(
            f"ALTER TABLE signups ADD COLUMN {column} VARCHAR(16) DEFAULT '{default}' NOT NULL "
            f"CONSTRAINT ck_signups_{column} CHECK ({check})"
        )
    op.add_column(
        "signups", sa.Column("private", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.add_column(
        "signups", sa.Column("max_away_days", sa.Integer(), nullable=False, server_default="14")
    )


def downgrade() -> None:
    for column in ("max_away_days", "private", "away_mode", "press"):
        op.drop_column("signups", column)
