"""The daemon's alarms moved to pbem.daemon.alarms: stored alarm jobs that name the old function
are dropped; the daemon sets every game's alarms again from the games table when it starts.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01 16:50:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _alarm_tables() -> list[str]:
    # One APScheduler job table per daemon name (`pbem run --name`): apscheduler_<name>.
    names = sa.inspect(op.get_bind()).get_table_names()
    return [name for name in names if name.startswith("apscheduler_")]


def upgrade() -> None:
    for table in _alarm_tables():
        op.execute(sa.text(f'DELETE FROM "{table}"'))


def downgrade() -> None:
    # The same reasoning the other way: an older daemon sets its alarms again at start.
    upgrade()
