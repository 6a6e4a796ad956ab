"""History entries keep what happened as event data (JSON), so every player can be told it in
their own words; older entries have none.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01 17:20:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("history") as batch:
        batch.add_column(sa.Column("events", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("history") as batch:
        batch.drop_column("events")
