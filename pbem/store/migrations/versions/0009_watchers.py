"""Watchers: addresses that follow a game's public status; a game may refuse them (private).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01 20:10:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # In place, not batch mode: SQLite's batch copy drops `games`, which would cascade to the
    # seats and history of every game.
    op.add_column(
        "games", sa.Column("private", sa.Boolean(), server_default=sa.false(), nullable=False)
    )
    op.create_table(
        "watchers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("address", sa.String(length=320), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_watchers_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_watchers")),
        sa.UniqueConstraint("game_id", "address", name=op.f("uq_watchers_game_id_address")),
    )


def downgrade() -> None:
    op.drop_table("watchers")
    op.drop_column("games", "private")
