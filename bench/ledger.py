"""What the database says was done: inbound emails by status, pending mail, and duplicates."""

from __future__ import annotations

from collections import Counter
from email.parser import BytesHeaderParser
from typing import Any

from sqlalchemy import Engine, func
from sqlmodel import Session, col, select

from pbem.store import HistoryRow, InboundRow, OutboxRow


def inbound_statuses(engine: Engine) -> Counter[str]:
    with Session(engine) as session:
        rows = session.exec(
            select(InboundRow.status, func.count()).group_by(col(InboundRow.status))
        ).all()
    return Counter({status: count for status, count in rows})


def outbox_with_status(engine: Engine, status: str = "pending") -> int:
    with Session(engine) as session:
        statement = select(func.count()).where(col(OutboxRow.status) == status)
        return int(session.exec(statement).one())


def _repeated(session: Session, column: Any) -> int:
    """How many values of `column` (NULL aside) occur more than once."""
    repeated = (
        select(column).where(column.is_not(None)).group_by(column).having(func.count() > 1)
    ).subquery()
    return int(session.exec(select(func.count()).select_from(repeated)).one())


def handled_twice(engine: Engine, smtp_raws: list[bytes]) -> dict[str, int]:
    """Inbound rows sharing a message key, inbound emails with more than one history entry, and
    Message-IDs the SMTP server received more than once: all three must be 0."""
    with Session(engine) as session:
        inbound = _repeated(session, col(InboundRow.message_key))
        history = _repeated(session, col(HistoryRow.inbound_id))
    parser = BytesHeaderParser()
    message_ids = Counter(parser.parsebytes(raw)["Message-ID"] for raw in smtp_raws)
    return {
        "inbound rows per message key > 1": inbound,
        "history entries per order > 1": history,
        "SMTP messages per Message-ID > 1": sum(1 for n in message_ids.values() if n > 1),
    }


def orders_with_history(engine: Engine) -> int:
    """Accepted inbound emails that have a history entry."""
    with Session(engine) as session:
        statement = (
            select(func.count(func.distinct(HistoryRow.inbound_id)))
            .join(InboundRow, col(InboundRow.id) == col(HistoryRow.inbound_id))
            .where(col(InboundRow.status) == "accepted")
        )
        return int(session.exec(statement).one())
