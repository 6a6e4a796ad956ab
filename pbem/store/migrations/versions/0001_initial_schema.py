"""The initial schema: games, seats, history, inbound, queued orders, outbox, mail state,
counters.

Revision ID: 0001
Revises: (none)
Create Date: 2026-11-29 16:14:51.614363
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "counters",
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("value", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_counters")),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("variant", sa.String(length=32), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("state", sa.Text(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("data_file", sa.Text(), nullable=True),
        sa.Column("deadline_hours", sa.Float(), nullable=True),
        sa.Column("deadline_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("policy", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("policy IN ('wait', 'default', 'skip')", name=op.f("ck_games_policy")),
        sa.CheckConstraint(
            "status IN ('running', 'paused', 'finished')", name=op.f("ck_games_status")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
    )
    op.create_index(
        op.f("ix_games_status_deadline_at"), "games", ["status", "deadline_at"], unique=False
    )
    op.create_table(
        "mail_state",
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_mail_state")),
    )
    op.create_table(
        "inbound",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("message_key", sa.Text(), nullable=False),
        sa.Column("raw", sa.LargeBinary(), nullable=False),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.CheckConstraint(
            "status IN ('new', 'accepted', 'rejected', 'ignored', 'failed', 'queued')",
            name=op.f("ck_inbound_status"),
        ),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_inbound_game_id_games"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_inbound")),
        sa.UniqueConstraint("message_key", name=op.f("uq_inbound_message_key")),
    )
    op.create_index(
        op.f("ix_inbound_status_received_at"), "inbound", ["status", "received_at"], unique=False
    )
    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("message_id", sa.Text(), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=True),
        sa.Column("to_address", sa.String(length=320), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("raw", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint(
            "status IN ('pending', 'sent', 'failed')", name=op.f("ck_outbox_status")
        ),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_outbox_game_id_games"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_outbox")),
        sa.UniqueConstraint("message_id", name=op.f("uq_outbox_message_id")),
    )
    op.create_index(
        op.f("ix_outbox_status_next_attempt_at"),
        "outbox",
        ["status", "next_attempt_at"],
        unique=False,
    )
    op.create_table(
        "seats",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("address", sa.String(length=320), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=True),
        sa.Column("secret", sa.String(length=16), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("bot_name", sa.String(length=64), nullable=True),
        sa.CheckConstraint("kind IN ('human', 'bot')", name=op.f("ck_seats_kind")),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_seats_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seats")),
        sa.UniqueConstraint("game_id", "position", name=op.f("uq_seats_game_id_position")),
        sa.UniqueConstraint("game_id", "secret", name=op.f("uq_seats_game_id_secret")),
    )
    op.create_index(op.f("ix_seats_secret"), "seats", ["secret"], unique=False)
    op.create_table(
        "history",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor", sa.String(length=320), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("summary", sa.Text(), nullable=False),
        sa.Column("why", sa.Text(), nullable=True),
        sa.Column("inbound_id", sa.Integer(), nullable=True),
        sa.Column("state_after", sa.Text(), nullable=False),
        sa.CheckConstraint("kind IN ('order', 'gm', 'system')", name=op.f("ck_history_kind")),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_history_game_id_games"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["inbound_id"],
            ["inbound.id"],
            name=op.f("fk_history_inbound_id_inbound"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_history")),
        sa.UniqueConstraint("game_id", "seq", name=op.f("uq_history_game_id_seq")),
    )
    op.create_table(
        "queued_orders",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("inbound_id", sa.Integer(), nullable=False),
        sa.Column("lines", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.CheckConstraint(
            "status IN ('waiting', 'applied', 'refused')", name=op.f("ck_queued_orders_status")
        ),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_queued_orders_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["inbound_id"],
            ["inbound.id"],
            name=op.f("fk_queued_orders_inbound_id_inbound"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_queued_orders")),
    )
    op.create_index(
        op.f("ix_queued_orders_game_id_status_position"),
        "queued_orders",
        ["game_id", "status", "position"],
        unique=False,
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_queued_orders_game_id_status_position"), table_name="queued_orders")
    op.drop_table("queued_orders")
    op.drop_table("history")
    op.drop_index(op.f("ix_seats_secret"), table_name="seats")
    op.drop_table("seats")
    op.drop_index(op.f("ix_outbox_status_next_attempt_at"), table_name="outbox")
    op.drop_table("outbox")
    op.drop_index(op.f("ix_inbound_status_received_at"), table_name="inbound")
    op.drop_table("inbound")
    op.drop_table("mail_state")
    op.drop_index(op.f("ix_games_status_deadline_at"), table_name="games")
    op.drop_table("games")
    op.drop_table("counters")
