"""Sign-up: games opened for players to join by email, and the players who joined.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01 20:05:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "signups",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("variant", sa.String(length=32), nullable=False),
        sa.Column("min_seats", sa.Integer(), nullable=False),
        sa.Column("max_seats", sa.Integer(), nullable=False),
        sa.Column("deadline_hours", sa.Float(), nullable=True),
        sa.Column("policy", sa.String(length=16), nullable=False),
        sa.Column("start_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("fill_with_bots", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("ended_by", sa.String(length=16), nullable=True),
        sa.Column("why", sa.Text(), nullable=True),
        sa.Column("short_told_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("policy IN ('wait', 'default', 'skip')", name=op.f("ck_signups_policy")),
        sa.CheckConstraint(
            "status IN ('open', 'started', 'closed')", name=op.f("ck_signups_status")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_signups")),
    )
    op.create_index(
        op.f("ix_signups_status_start_at"), "signups", ["status", "start_at"], unique=False
    )
    op.create_table(
        "signup_players",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("signup_id", sa.String(length=32), nullable=False),
        sa.Column("address", sa.String(length=320), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=True),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["signup_id"],
            ["signups.id"],
            name=op.f("fk_signup_players_signup_id_signups"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_signup_players")),
        sa.UniqueConstraint(
            "signup_id", "address", name=op.f("uq_signup_players_signup_id_address")
        ),
    )


def downgrade() -> None:
    op.drop_table("signup_players")
    op.drop_index(op.f("ix_signups_status_start_at"), table_name="signups")
    op.drop_table("signups")
