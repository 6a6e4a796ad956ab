"""INSERT ... ON CONFLICT on both databases: how the store dedupes and upserts without races."""

from __future__ import annotations

from typing import Any, TypeVar

from sqlalchemy import Table
from sqlalchemy.dialects import postgresql, sqlite
from sqlmodel import Session

from pbem.store.errors import StoreError
from pbem.store.tables import StoreModel

Row = TypeVar("Row", bound=StoreModel)


def insert_unless_present(
    session: Session, table: Table, values: dict[str, Any], unique_column: str
) -> Any | None:
    """Insert one row unless one with the same `unique_column` exists.

    Returns the new row's primary key, or None when the row was already there (perhaps written
    a moment ago by another process: the database decides, so two daemons cannot both win).
    """
    statement = _insert_unless_present(session, table, values, unique_column)
    return session.execute(statement.returning(*table.primary_key.columns)).scalar_one_or_none()


def insert_row_unless_present(
    session: Session, model: type[Row], values: dict[str, Any], unique_column: str
) -> Row | None:
    """`insert_unless_present`, returning the new row as an object of the session (None when
    it was there already): RETURNING gives every column, so the row needs no SELECT after.
    The INSERT is made on the model, not its table, so that the ORM reads what it returns."""
    statement = _insert_unless_present(session, model, values, unique_column)
    return session.scalars(statement.returning(model)).one_or_none()


def _insert_unless_present(
    session: Session, table: Table | type[StoreModel], values: dict[str, Any], unique_column: str
) -> Any:
    return (
        _insert(session, table)
        .values(values)
        .on_conflict_do_nothing(index_elements=[unique_column])
    )


def insert_or_update(
    session: Session, table: Table, values: dict[str, Any], unique_column: str
) -> None:
    """Insert one row, or update the other columns of the row with the same `unique_column`."""
    changes = {name: value for name, value in values.items() if name != unique_column}
    statement = (
        _insert(session, table)
        .values(values)
        .on_conflict_do_update(index_elements=[unique_column], set_=changes)
    )
    session.execute(statement)


def _insert(session: Session, table: Table | type[StoreModel]) -> Any:
    dialect = session.get_bind().dialect.name
    if dialect == "postgresql":
        return postgresql.insert(table)
    if dialect == "sqlite":
        return sqlite.insert(table)
    raise StoreError(f"no INSERT ... ON CONFLICT for the {dialect} database")
