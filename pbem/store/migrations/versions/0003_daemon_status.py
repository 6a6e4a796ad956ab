"""Operations: each daemon's view of its mail servers (`daemon_status`), and an index to count
the mail sent in the last minute and day (the send budget).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01 17:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _link_columns(prefix: str) -> list[sa.Column[object]]:
    """The same six columns for the IMAP and the SMTP server."""
    return [
        sa.Column(f"{prefix}_ok_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column(f"{prefix}_problem", sa.Text(), nullable=True),
        sa.Column(f"{prefix}_needs_person", sa.Boolean(), nullable=False),
        sa.Column(f"{prefix}_failures", sa.Integer(), nullable=False),
        sa.Column(f"{prefix}_retry_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column(f"{prefix}_told_at", sa.DateTime(timezone=True), nullable=True),
    ]


def upgrade() -> None:
    op.create_table(
        "daemon_status",
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("beat_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("wait_seconds", sa.Float(), nullable=False),
        sa.Column("stopped_at", sa.DateTime(timezone=True), nullable=True),
        *_link_columns("imap"),
        *_link_columns("smtp"),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_daemon_status")),
    )
    op.create_index(op.f("ix_outbox_sent_at"), "outbox", ["sent_at"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_outbox_sent_at"), table_name="outbox")
    op.drop_table("daemon_status")
