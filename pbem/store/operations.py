"""Queries for running the moderator: what went out lately, what waits in the outbox, and what
each daemon last saw of its mail servers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from sqlalchemy import ColumnElement, and_, case, func, or_
from sqlalchemy.orm import defer
from sqlmodel import Session, col, select

from pbem.store.tables import DaemonStatusRow, GameRow, OutboxRow
from pbem.unreachable import UNREACHABLE_SUFFIX, unreachable

OutboxView = Literal["pending", "deferred", "failed", "sent", "kept"]
"""How `pbem outbox` names a row: `deferred` is a pending row that has been tried before; `kept`
one marked sent to an address at a `.invalid` domain, a computer player's: it was handed to the
player inside pbem (`pbem.moderator.bots`), never sent."""


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
    if row.status == "sent" and unreachable(row.to_address):
        return "kept"
    return row.status


def _shown_as(view: OutboxView) -> ColumnElement[bool]:
    """The rows `outbox_view` names `view`, as SQL."""
    status, tried = col(OutboxRow.status), col(OutboxRow.attempts) > 0
    return {
        "pending": and_(status == "pending", ~tried),
        "deferred": and_(status == "pending", tried),
        "failed": status == "failed",
        "sent": and_(status == "sent", ~_unreachable()),
        "kept": and_(status == "sent", _unreachable()),
    }[view]


def _unreachable() -> ColumnElement[bool]:
    """`pbem.unreachable.unreachable` of the row's address, as SQL."""
    return func.lower(col(OutboxRow.to_address)).like(f"%{UNREACHABLE_SUFFIX}")


def sent_since(session: Session, since: datetime) -> int:
    """How many emails went out at or after `since`: the provider's sending limits count them,
    so not the computer players' mail, which never leaves pbem."""
    statement = select(func.count()).where(col(OutboxRow.sent_at) >= since, ~_unreachable())
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
    session: Session, views: Sequence[OutboxView], limit: int | None = 200
) -> Sequence[OutboxRow]:
    """The newest `limit` rows shown as one of `views` (all when None), oldest first."""
    statement = (
        select(OutboxRow)
        .where(or_(*(_shown_as(view) for view in views)))
        .options(defer(OutboxRow.raw))  # type: ignore[arg-type]  # a listing reads no email
        .order_by(col(OutboxRow.created_at).desc(), col(OutboxRow.id).desc())
        .limit(limit)
    )
    return list(reversed(session.exec(statement).all()))


def outbox_total(session: Session, views: Sequence[OutboxView]) -> int:
    """How many rows are shown as one of `views`: what `outbox_rows` would list without a limit."""
    statement = select(func.count()).where(or_(*(_shown_as(view) for view in views)))
    return session.exec(statement).one()


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
