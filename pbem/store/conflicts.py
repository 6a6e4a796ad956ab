"""INSERT ... ON CONFLICT on both databases: how the store dedupes and upserts without races.

The statements are built once per table and dialect and the values passed as parameters: built
anew with `.values()` each time, an INSERT of a 31 KB email cost more in SQLAlchemy's statement
building and cache keys than in the database.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from sqlalchemy import Table
from sqlalchemy.dialects import postgresql, sqlite
from sqlmodel import Session

from pbem.store.errors import StoreError


def insert_unless_present(
    session: Session, table: Table, values: dict[str, Any], unique_column: str
) -> Any | None:
    """Insert one row unless one with the same `unique_column` exists.

    Returns the new row's primary key, or None when the row was already there (perhaps written
    a moment ago by another process: the database decides, so two daemons cannot both win).
    """
    statement = _insert_unless_present(_dialect(session), table, unique_column)
    return session.execute(statement, values).scalar_one_or_none()


def insert_or_update(
    session: Session, table: Table, values: dict[str, Any], unique_column: str
) -> None:
    """Insert one row, or update the other columns of the row with the same `unique_column`."""
    statement = _insert_or_update(_dialect(session), table, unique_column, tuple(values))
    session.execute(statement, values)


@cache
def _insert_or_update(
    dialect: str, table: Table, unique_column: str, names: tuple[str, ...]
) -> Any:
    insert = _insert(dialect, table)
    changes = {name: insert.excluded[name] for name in names if name != unique_column}
    return insert.on_conflict_do_update(index_elements=[unique_column], set_=changes)


@cache
def _insert_unless_present(dialect: str, table: Table, unique_column: str) -> Any:
    return (
        _insert(dialect, table)
        .on_conflict_do_nothing(index_elements=[unique_column])
        .returning(*table.primary_key.columns)
    )


def _dialect(session: Session) -> str:
    return session.get_bind().dialect.name


def _insert(dialect: str, table: Table) -> Any:
    if dialect == "postgresql":
        return postgresql.insert(table)
    if dialect == "sqlite":
        return sqlite.insert(table)
    raise StoreError(f"no INSERT ... ON CONFLICT for the {dialect} database")
