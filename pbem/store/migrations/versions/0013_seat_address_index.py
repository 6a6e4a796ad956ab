"""An index on seats (game_id, address), for the outbox's look each cycle for letters to a
computer player's seat.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-02 11:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_seats_game_id_address", "seats", ["game_id", "address"])


def downgrade() -> None:
    op.drop_index("ix_seats_game_id_address", table_name="seats")
