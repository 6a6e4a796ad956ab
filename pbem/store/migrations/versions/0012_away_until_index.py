"""An index on seats.away_until, for the daemon's look each cycle for absences that have ended.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-02 03:55:00
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_seats_away_until", "seats", ["away_until"])


def downgrade() -> None:
    op.drop_index("ix_seats_away_until", table_name="seats")
