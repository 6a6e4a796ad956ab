"""Early orders the game master enters have no email: queued_orders.inbound_id may be NULL.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01 17:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("queued_orders") as batch:
        batch.alter_column("inbound_id", existing_type=sa.Integer(), nullable=True)


def downgrade() -> None:
    # The game master's early orders cannot be kept without an email to point at.
    op.execute("DELETE FROM queued_orders WHERE inbound_id IS NULL")
    with op.batch_alter_table("queued_orders") as batch:
        batch.alter_column("inbound_id", existing_type=sa.Integer(), nullable=False)
