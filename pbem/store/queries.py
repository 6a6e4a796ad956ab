"""The reads and writes the moderator repeats, each one statement or two, on the hot-path indexes.

Functions that pick work to do (`due_outbox_ids`, `inbound_with_status`) lock the rows they return
on PostgreSQL and skip rows another daemon has locked, so two daemons never take the same job.
SQLite ignores those locks: there, one daemon per database file.

The statements run for every order or letter are built once (module constants with bound
parameters): building one and its cache key cost as much as running it on SQLite.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from datetime import date, datetime
from typing import Any, cast

from sqlalchemy import ColumnElement, CursorResult, bindparam, exists, func, insert, update
from sqlalchemy import select as sa_select
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.exc import StaleDataError
from sqlmodel import Session, col, select

from pbem.store.conflicts import insert_or_update, insert_unless_present
from pbem.store.errors import GameNotFound
from pbem.store.tables import (
    GameRow,
    GameStatus,
    HistoryKind,
    HistoryRow,
    InboundRow,
    InboundStatus,
    MailStateRow,
    OutboxRow,
    OutboxStatus,
    QueuedOrderRow,
    SeatRow,
    table_of,
)
from pbem.store.types import utc_now


def get_game(session: Session, game_id: str) -> GameRow | None:
    return session.get(GameRow, game_id)


def lock_game(session: Session, game_id: str) -> GameRow:
    """The game, locked until the transaction ends (SELECT ... FOR UPDATE on PostgreSQL).

    Freshly read even if the session had it already, so the caller decides on the latest state.
    SQLite has no row locks; the version check on save still catches a concurrent writer.
    """
    game = lock_game_if_any(session, game_id)
    if game is None:
        raise GameNotFound(f"no game {game_id!r}")
    return game


def lock_game_if_any(session: Session, game_id: str) -> GameRow | None:
    """`lock_game`, or None when there is no such game."""
    return session.exec(_LOCK_GAME, params={"game_id": game_id}).first()


_LOCK_GAME = (
    select(GameRow)
    .where(col(GameRow.id) == bindparam("game_id"))
    .with_for_update()
    .execution_options(populate_existing=True)
)


def save_game_state(session: Session, game: GameRow, state: str, status: GameStatus) -> None:
    """Write the game's new state and status, checking and bumping its version as the ORM's
    flush would (StaleDataError, so StaleGame, when another process saved it first).

    One UPDATE built once instead of the row flushed by the ORM (once an order): the unit of
    work cost about three times the statement. The row's other changes, if any, are flushed
    first, and the row takes the written values as its own, so it stays clean."""
    if session.dirty or session.new:
        session.flush()
    now = utc_now()
    values = {"game_id": game.id, "version": game.version, "state": state, "status": status}
    written = cast(
        CursorResult[Any], session.execute(_SAVE_GAME_STATE, {**values, "updated_at": now})
    )
    if written.rowcount != 1:
        raise StaleDataError(f"game {game.id} is no longer at version {game.version}")
    changes = {"state": state, "status": status, "version": game.version + 1, "updated_at": now}
    for name, value in changes.items():
        set_committed_value(game, name, value)


_GAMES = table_of(GameRow)
_SAVE_GAME_STATE = (
    update(_GAMES)
    .where(_GAMES.c.id == bindparam("game_id"), _GAMES.c.version == bindparam("version"))
    .values(
        state=bindparam("state"),
        status=bindparam("status"),
        version=_GAMES.c.version + 1,
        updated_at=bindparam("updated_at"),
    )
)


def games_with_status(session: Session, status: GameStatus) -> Sequence[GameRow]:
    statement = select(GameRow).where(col(GameRow.status) == status).order_by(col(GameRow.id))
    return session.exec(statement).all()


def sent_to_recently(session: Session, address: str, kinds: Sequence[str], since: datetime) -> int:
    """How many letters of `kinds` were queued for `address` since `since` (rate limits)."""
    statement = (
        select(func.count())
        .select_from(OutboxRow)
        .where(col(OutboxRow.to_address) == address)
        .where(col(OutboxRow.kind).in_(kinds))
        .where(col(OutboxRow.created_at) >= since)
    )
    return int(session.exec(statement).one())


def games_past_deadline(session: Session, now: datetime | None = None) -> Sequence[GameRow]:
    """Running games whose deadline has passed, most overdue first."""
    statement = (
        select(GameRow)
        .where(col(GameRow.status) == "running")
        .where(col(GameRow.deadline_at) <= (now or utc_now()))
        .order_by(col(GameRow.deadline_at))
    )
    return session.exec(statement).all()


def games_with_absences_over(session: Session, today: date) -> list[str]:
    """Running games with a seat whose absence (AWAY) ended on or before `today`.

    Two statements, each on its index: joined, SQLite's planner (without statistics) walks every
    running game and its seats instead (28 ms a daemon cycle at 10,000 games)."""
    ended = select(SeatRow.game_id).where(col(SeatRow.away_until) <= today)
    game_ids = set(session.exec(ended).all())
    if not game_ids:
        return []
    running = (
        select(GameRow.id)
        .where(col(GameRow.id).in_(game_ids))
        .where(col(GameRow.status) == "running")
    )
    return sorted(session.exec(running).all())


def seats_of(session: Session, game_id: str) -> Sequence[SeatRow]:
    """A game's seats in seat order."""
    return session.exec(_SEATS_OF, params={"game_id": game_id}).all()


_SEATS_OF = (
    select(SeatRow)
    .where(col(SeatRow.game_id) == bindparam("game_id"))
    .order_by(col(SeatRow.position))
)


def seat_by_secret(session: Session, game_id: str, secret: str) -> SeatRow | None:
    statement = (
        select(SeatRow).where(col(SeatRow.game_id) == game_id).where(col(SeatRow.secret) == secret)
    )
    return session.exec(statement).first()


def seat_by_address(session: Session, game_id: str, address: str) -> SeatRow | None:
    statement = (
        select(SeatRow)
        .where(col(SeatRow.game_id) == game_id)
        .where(func.lower(SeatRow.address) == address.lower())
    )
    return session.exec(statement).first()


def append_history(
    session: Session,
    game_id: str,
    *,
    actor: str,
    kind: HistoryKind,
    summary: str,
    state_after: str,
    why: str | None = None,
    inbound_id: int | None = None,
    at: datetime | None = None,
    events: str | None = None,
) -> HistoryRow:
    """Add the game's next history entry (seq 1, 2, ...), written at once so it has its id.

    One statement: the INSERT numbers the entry itself (a subquery for the last seq) and
    returns it. Hold `lock_game` first when another process may write the same game: the unique
    (game_id, seq) refuses a second entry with the same number rather than losing one.
    """
    values = {
        "game_id": game_id,
        "of_game": game_id,  # for the subquery
        "at": at or utc_now(),
        "actor": actor,
        "kind": kind,
        "summary": summary,
        "why": why,
        "inbound_id": inbound_id,
        "state_after": state_after,
        "events": events,
    }
    entry: HistoryRow = session.execute(_NEW_HISTORY_ENTRY, values).scalars().one()
    return entry


_LAST_SEQ = select(func.max(HistoryRow.seq)).where(col(HistoryRow.game_id) == bindparam("of_game"))
# Read by the ORM as a SELECT of the entry would be: the entry is the session's, all loaded.
_NEW_HISTORY_ENTRY = select(HistoryRow).from_statement(
    insert(table_of(HistoryRow))
    .values(seq=func.coalesce(_LAST_SEQ.scalar_subquery(), 0) + 1)
    .returning(*table_of(HistoryRow).columns)
)


def last_history(session: Session, game_id: str, limit: int = 10) -> list[HistoryRow]:
    """The game's latest `limit` history entries, oldest first."""
    statement = (
        select(HistoryRow)
        .where(col(HistoryRow.game_id) == game_id)
        .order_by(col(HistoryRow.seq).desc())
        .limit(limit)
    )
    return list(reversed(session.exec(statement).all()))


def history_since(session: Session, game_id: str, seq: int) -> list[HistoryRow]:
    """The game's history entries after entry `seq`, oldest first."""
    return list(session.exec(_HISTORY_SINCE, params={"game_id": game_id, "seq": seq}).all())


_HISTORY_SINCE = (
    select(HistoryRow)
    .where(col(HistoryRow.game_id) == bindparam("game_id"))
    .where(col(HistoryRow.seq) > bindparam("seq"))
    .order_by(col(HistoryRow.seq))
)


def history_entry(session: Session, game_id: str, seq: int) -> HistoryRow | None:
    statement = (
        select(HistoryRow)
        .where(col(HistoryRow.game_id) == game_id)
        .where(col(HistoryRow.seq) == seq)
    )
    return session.exec(statement).first()


def inbound_by_key(session: Session, message_key: str) -> InboundRow | None:
    statement = select(InboundRow).where(col(InboundRow.message_key) == message_key)
    return session.exec(statement).first()


def record_inbound(
    session: Session,
    *,
    message_key: str,
    raw: bytes,
    source: str,
    received_at: datetime | None = None,
) -> int | None:
    """Store a received email as "new": its row's id, or None if one with this key was stored
    before. The row is not read back: its handler needs only the id (`record_inbound_result`)."""
    values = {
        "message_key": message_key,
        "raw": raw,
        "source": source,
        "received_at": received_at or utc_now(),
    }
    new_id: int | None = insert_unless_present(session, _INBOUND, values, "message_key")
    return new_id


def record_inbound_result(
    session: Session, inbound_id: int, status: InboundStatus, reason: str, game_id: str | None
) -> None:
    """Write what became of a received email. One UPDATE built once, not an ORM row flushed at
    commit: the unit of work cost about three times the statement (a flush per order)."""
    values = {"inbound_id": inbound_id, "status": status, "reason": reason, "game_id": game_id}
    session.execute(_RECORD_INBOUND_RESULT, values)


_INBOUND = table_of(InboundRow)
_RECORD_INBOUND_RESULT = (
    update(_INBOUND)
    .where(_INBOUND.c.id == bindparam("inbound_id"))
    .values(status=bindparam("status"), reason=bindparam("reason"), game_id=bindparam("game_id"))
)


def inbound_with_status(
    session: Session, status: InboundStatus, limit: int = 100
) -> Sequence[InboundRow]:
    """Received emails in `status`, oldest first, claimed for this transaction."""
    statement = (
        select(InboundRow)
        .where(col(InboundRow.status) == status)
        .order_by(col(InboundRow.received_at), col(InboundRow.id))
        .limit(limit)
        .with_for_update(skip_locked=True)
    )
    return session.exec(statement).all()


def waiting_orders(
    session: Session, game_id: str, position: int | None = None
) -> Sequence[QueuedOrderRow]:
    """Early orders still waiting for their turn, first received first; one seat's if given."""
    statement = (
        select(QueuedOrderRow)
        .where(col(QueuedOrderRow.game_id) == game_id)
        .where(col(QueuedOrderRow.status) == "waiting")
        .order_by(col(QueuedOrderRow.id))
    )
    if position is not None:
        statement = statement.where(col(QueuedOrderRow.position) == position)
    return session.exec(statement).all()


def set_aside_waiting_orders(
    session: Session,
    game_id: str,
    reason: str,
    *,
    position: int | None = None,
    since: datetime | None = None,
) -> list[QueuedOrderRow]:
    """The early orders still waiting (one seat's if `position`, those kept after `since` if
    given) marked refused for `reason`, so no turn plays them; the rows, first received first."""
    rows = [
        row
        for row in waiting_orders(session, game_id, position)
        if since is None or row.created_at > since
    ]
    for row in rows:
        row.status, row.reason = "refused", reason
        session.add(row)
    return rows


def queue_outbox(
    session: Session,
    *,
    message_id: str,
    to_address: str,
    kind: str,
    raw: bytes,
    game_id: str | None = None,
    now: datetime | None = None,
) -> int | None:
    """Queue a rendered email for sending: its row's id, or None if this Message-ID is queued
    already. The row is not read back (its 31 KB of raw bytes included): nobody needs it.

    A moderator that handles the same inbound email twice (after a crash, or in two daemons)
    renders the same Message-ID, so the player still gets one copy.
    """
    created_at = now or utc_now()
    values = {
        "message_id": message_id,
        "to_address": to_address,
        "kind": kind,
        "raw": raw,
        "game_id": game_id,
        "created_at": created_at,
        "next_attempt_at": created_at,
    }
    new_id: int | None = insert_unless_present(session, table_of(OutboxRow), values, "message_id")
    return new_id


def _to_bot_seat() -> ColumnElement[bool]:
    """An outbox row addressed to a seat a computer player holds: delivered in-process, not sent."""
    return exists().where(
        col(SeatRow.game_id) == col(OutboxRow.game_id),
        col(SeatRow.address) == col(OutboxRow.to_address),
        col(SeatRow.kind) == "bot",
    )


def due_outbox_ids(session: Session, now: datetime | None = None, limit: int = 100) -> list[int]:
    """Pending emails to people whose next attempt is due, longest waiting first, claimed: their
    ids only, since the sender claims and reads each row anew (loading up to `limit` model
    objects a pass only to take their ids was waste)."""
    statement = (
        select(col(OutboxRow.id))
        .where(col(OutboxRow.status) == "pending")
        .where(col(OutboxRow.next_attempt_at) <= (now or utc_now()))
        .where(~_to_bot_seat())
        .order_by(col(OutboxRow.next_attempt_at), col(OutboxRow.id))
        .limit(limit)
        .with_for_update(skip_locked=True)
    )
    return [row_id for row_id in session.exec(statement).all() if row_id is not None]


@dataclass
class ClaimedEmail:
    """An outbox row claimed for sending, as a plain object: the sender changes the columns
    from `status` on, and `record_outbox` writes them. The ORM's load and flush of the row, and
    building the model object, cost more than sending it over a local SMTP connection."""

    id: int
    message_id: str
    game_id: str | None
    to_address: str
    kind: str
    raw: bytes
    status: OutboxStatus
    attempts: int
    next_attempt_at: datetime
    last_error: str | None
    sent_at: datetime | None


def claim_outbox(session: Session, row_id: int) -> ClaimedEmail | None:
    """Outbox row `row_id` locked for this transaction, read anew, while it is still pending;
    None once it was sent, or while another process holds it."""
    found = session.execute(_CLAIM_OUTBOX, {"row_id": row_id}).first()
    return None if found is None else ClaimedEmail(*found)


def record_outbox(session: Session, email: ClaimedEmail) -> None:
    """Write what became of a claimed email: its status, attempts, error and times."""
    changes = {name: getattr(email, name) for name in _AFTER_SENDING}
    session.execute(_RECORD_OUTBOX, {"row_id": email.id, **changes})


_OUTBOX = table_of(OutboxRow)
_CLAIM_OUTBOX = (
    sa_select(*(_OUTBOX.c[field.name] for field in fields(ClaimedEmail)))
    .where(_OUTBOX.c.id == bindparam("row_id"))
    .where(_OUTBOX.c.status == "pending")
    .with_for_update(skip_locked=True)
)
_AFTER_SENDING = ("status", "attempts", "next_attempt_at", "last_error", "sent_at")
_RECORD_OUTBOX = update(_OUTBOX).where(_OUTBOX.c.id == bindparam("row_id"))


def bot_mail(session: Session, limit: int = 100) -> Sequence[OutboxRow]:
    """Pending emails to computer players, oldest first, claimed for answering."""
    statement = (
        select(OutboxRow)
        .where(col(OutboxRow.status) == "pending")
        .where(_to_bot_seat())
        .order_by(col(OutboxRow.id))
        .limit(limit)
        .with_for_update(skip_locked=True)
    )
    return session.exec(statement).all()


def get_mail_state(session: Session, key: str) -> str | None:
    # The column, not the row object: a row cached in the session could predate set_mail_state.
    return session.exec(_MAIL_STATE, params={"key": key}).first()


_MAIL_STATE = select(MailStateRow.value).where(col(MailStateRow.key) == bindparam("key"))


def set_mail_state(session: Session, key: str, value: str) -> None:
    values = {"key": key, "value": value}
    insert_or_update(session, table_of(MailStateRow), values, "key")
