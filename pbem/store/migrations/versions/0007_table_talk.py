"""Table talk: a game's press setting (all, public, none) and history entries of kind talk.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01 20:10:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

PRESS = "press IN ('all', 'public', 'none')"
KINDS_BEFORE = "kind IN ('order', 'gm', 'system')"
KINDS_AFTER = "kind IN ('order', 'gm', 'system', 'talk')"


def upgrade() -> None:
    # Not batch mode for games: SQLite would rebuild the table, and dropping the old one deletes
    # every seat and history entry through their ON DELETE CASCADE. ADD COLUMN takes its CHECK
    # inline on both databases. The server default gives the games started before talk existed
    # the default, all. History has no children, so batch mode may rebuild it.
    op.add_column(
        "games",
        sa.Column(
            "press",
            sa.String(length=16),
            sa.CheckConstraint(PRESS, name=op.f("ck_games_press")),
            nullable=False,
            server_default="all",
        ),
    )
    with op.batch_alter_table("history") as batch:
        batch.drop_constraint(op.f("ck_history_kind"), type_="check")
        batch.create_check_constraint(op.f("ck_history_kind"), KINDS_AFTER)


def downgrade() -> None:
    # The talk goes with the setting: the older schema has no kind for it.
    op.execute("DELETE FROM history WHERE kind = 'talk'")
    with op.batch_alter_table("history") as batch:
        batch.drop_constraint(op.f("ck_history_kind"), type_="check")
        batch.create_check_constraint(op.f("ck_history_kind"), KINDS_BEFORE)
    # Its CHECK is the column's own, so it goes with it (no rebuild of games: see upgrade).
    op.drop_column("games", "press")
