"""Queries for running the moderator: what went out lately, what waits in the outbox, and what
each daemon last saw of its mail servers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from sqlalchemy import case, func
from sqlmodel import Session, col, select

from pbem.store.tables import DaemonStatusRow, GameRow, OutboxRow

OutboxView = Literal["pending", "deferred", "failed", "sent"]
"""How `pbem outbox` names a row: `deferred` is a pending row that has been tried before."""


@dataclass(frozen=True)
class OutboxCounts:
    pending: int
    """Never tried yet."""
    deferred: int
    """Tried, refused for now (4xx, a sending limit, no connection): tried again later."""
    failed: int


def outbox_view(row: OutboxRow) -> OutboxView:
    if row.status == "pending" and row.attempts:
        return "deferred"
    return row.status


def sent_since(session: Session, since: datetime) -> int:
    """How many emails went out at or after `since`."""
    statement = select(func.count()).where(col(OutboxRow.sent_at) >= since)
    return session.exec(statement).one()


def outbox_counts(session: Session) -> OutboxCounts:
    tried = func.sum(case((col(OutboxRow.attempts) > 0, 1), else_=0))
    statement = (
        select(OutboxRow.status, func.count(), tried)
        .where(col(OutboxRow.status).in_(["pending", "failed"]))
        .group_by(col(OutboxRow.status))
    )
    counts = {status: (int(n), int(t or 0)) for status, n, t in session.exec(statement).all()}
    pending, deferred = counts.get("pending", (0, 0))
    return OutboxCounts(
        pending=pending - deferred, deferred=deferred, failed=counts.get("failed", (0, 0))[0]
    )


def outbox_rows(
    session: Session, views: Sequence[OutboxView], limit: int = 200
) -> Sequence[OutboxRow]:
    """The rows shown as one of `views`, oldest first."""
    statuses = {"pending" if view == "deferred" else view for view in views}
    statement = (
        select(OutboxRow)
        .where(col(OutboxRow.status).in_(sorted(statuses)))
        .order_by(col(OutboxRow.created_at), col(OutboxRow.id))
    )
    rows = session.exec(statement).all()
    return [row for row in rows if outbox_view(row) in views][:limit]


def stale_deferred(session: Session, created_before: datetime) -> Sequence[OutboxRow]:
    """Deferred emails queued before `created_before`, claimed for giving up."""
    statement = (
        select(OutboxRow)
        .where(col(OutboxRow.status) == "pending")
        .where(col(OutboxRow.attempts) > 0)
        .where(col(OutboxRow.created_at) < created_before)
        .order_by(col(OutboxRow.id))
        .with_for_update(skip_locked=True)
    )
    return session.exec(statement).all()


def game_email(session: Session, game_id: str, message_ids: Sequence[str]) -> bytes | None:
    """The bytes of the first of `message_ids` that this game's moderator sent (an email a
    player's mail client names in In-Reply-To), or None."""
    if not message_ids:
        return None
    statement = (
        select(OutboxRow.message_id, OutboxRow.raw)
        .where(col(OutboxRow.message_id).in_(message_ids))
        .where(col(OutboxRow.game_id) == game_id)
    )
    sent = dict(session.exec(statement).all())
    return next((sent[m] for m in message_ids if m in sent), None)


def games_with_deadlines(session: Session) -> Sequence[tuple[str, str, datetime]]:
    """(game id, policy, deadline) of every running game with a deadline, soonest first."""
    statement = (
        select(GameRow.id, GameRow.policy, GameRow.deadline_at)
        .where(col(GameRow.status) == "running")
        .where(col(GameRow.deadline_at).is_not(None))
        .order_by(col(GameRow.deadline_at))
    )
    return [(game, policy, at) for game, policy, at in session.exec(statement).all() if at]


def daemon_status(session: Session, name: str) -> DaemonStatusRow:
    """The daemon's row, made on first use."""
    row = session.get(DaemonStatusRow, name)
    if row is None:
        row = DaemonStatusRow(name=name)
        session.add(row)
    return row


def all_daemon_status(session: Session) -> Sequence[DaemonStatusRow]:
    return session.exec(select(DaemonStatusRow).order_by(col(DaemonStatusRow.name))).all()
