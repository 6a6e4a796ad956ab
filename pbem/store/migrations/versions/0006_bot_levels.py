"""Seats: a computer player's level (strong, sensible, random).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01 17:15:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

CHECK = "bot_level IN ('strong', 'sensible', 'random')"


def upgrade() -> None:
    # Batch mode: SQLite cannot add a CHECK constraint to an existing table in place.
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("bot_level", sa.String(length=16), nullable=True))
        batch.create_check_constraint(op.f("ck_seats_bot_level"), CHECK)


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_constraint(op.f("ck_seats_bot_level"), type_="check")
        batch.drop_column("bot_level")
