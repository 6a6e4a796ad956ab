"""Alembic's entry point for pbem: always given an open connection by `pbem.store.migrate`."""

from __future__ import annotations

from typing import Any, Literal

from alembic import context
from alembic.autogenerate.api import AutogenContext
from sqlmodel.sql.sqltypes import AutoString

from pbem.store.errors import StoreError
from pbem.store.tables import METADATA
from pbem.store.types import UtcDateTime


def render_item(kind: str, item: Any, autogen_context: AutogenContext) -> str | Literal[False]:
    """Write pbem's column types as plain SQLAlchemy ones, so a migration never imports pbem."""
    if kind != "type":
        return False
    if isinstance(item, UtcDateTime):
        return "sa.DateTime(timezone=True)"
    if isinstance(item, AutoString):
        return "sa.String()"
    return False


connection = context.config.attributes.get("connection")
if connection is None:
    raise StoreError("pbem runs its migrations itself: use pbem.store.open_database or migrate")

context.configure(
    connection=connection,
    target_metadata=METADATA,
    render_item=render_item,
    # SQLite cannot ALTER most things; batch mode rebuilds the table instead.
    render_as_batch=connection.dialect.name == "sqlite",
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
