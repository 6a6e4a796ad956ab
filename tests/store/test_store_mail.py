"""Received emails, early orders, the outbox and mail state: dedupe, ordering and claiming."""

from __future__ import annotations

import sqlite3
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from sqlalchemy import Engine, func, text
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlmodel import Session, select

from pbem.store import (
    InboundRow,
    OutboxRow,
    QueuedOrderRow,
    claim_outbox,
    due_outbox_ids,
    get_mail_state,
    inbound_by_key,
    inbound_with_status,
    open_database,
    queue_outbox,
    record_inbound,
    record_outbox,
    retry_while_locked,
    sending_engine,
    session_scope,
    set_mail_state,
    take_write_lock,
    utc_now,
    waiting_orders,
)
from pbem.store.tables import QueuedOrderStatus
from tests.support.db import insert_game

RAW = b"From: player0@example.org\r\nSubject: Re: your turn\r\n\r\nHIRE 0\r\n\xff"


def queue_email(engine: Engine, key: str, to: str = "player0@example.org") -> OutboxRow | None:
    with session_scope(engine) as session:
        new_id = queue_outbox(session, message_id=key, to_address=to, kind="reply", raw=RAW)
        return None if new_id is None else session.get(OutboxRow, new_id)


def test_an_email_is_stored_once_whatever_its_bytes(db_engine: Engine) -> None:
    with session_scope(db_engine) as session:
        first = record_inbound(session, message_key="<a@x>", raw=RAW, source="imap:INBOX:7:1")
    with session_scope(db_engine) as session:
        again = record_inbound(session, message_key="<a@x>", raw=RAW + b"!", source="maildir:n")
        stored = inbound_by_key(session, "<a@x>")
        count = session.exec(select(func.count()).select_from(InboundRow)).one()
    assert first is not None and again is None
    assert stored is not None
    assert (stored.id, stored.raw, stored.status, stored.attempts) == (first, RAW, "new", 0)
    assert count == 1


def test_the_database_itself_refuses_a_duplicate_message_key(db_engine: Engine) -> None:
    with session_scope(db_engine) as session:
        record_inbound(session, message_key="<a@x>", raw=RAW, source="replay")
    with pytest.raises(IntegrityError), session_scope(db_engine) as session:
        session.add(InboundRow(message_key="<a@x>", raw=RAW, source="replay"))


def test_one_email_seen_by_several_daemons_at_once_is_stored_once(db_engine: Engine) -> None:
    def take(_: int) -> int | None:
        with session_scope(db_engine) as session:
            return record_inbound(session, message_key="<same@x>", raw=RAW, source="imap:I:1:9")

    with ThreadPoolExecutor(max_workers=4) as pool:
        taken = [row_id for row_id in pool.map(take, range(8)) if row_id is not None]
    assert len(taken) == 1


def test_emails_in_a_status_come_oldest_first(db_engine: Engine) -> None:
    now = utc_now()
    with session_scope(db_engine) as session:
        for key, minutes_ago in (("<new@x>", 1), ("<old@x>", 9), ("<mid@x>", 5)):
            received_at = now - timedelta(minutes=minutes_ago)
            record_inbound(
                session, message_key=key, raw=RAW, source="replay", received_at=received_at
            )
        done = inbound_by_key(session, "<mid@x>")
        assert done is not None
        done.status = "accepted"
    with session_scope(db_engine) as session:
        keys = [row.message_key for row in inbound_with_status(session, "new")]
        assert keys == ["<old@x>", "<new@x>"]
        assert [row.message_key for row in inbound_with_status(session, "new", limit=1)] == [
            "<old@x>"
        ]


def test_waiting_orders_are_a_seats_unresolved_ones_first_come_first(db_engine: Engine) -> None:
    orders: list[tuple[int, QueuedOrderStatus]] = [
        (1, "waiting"),
        (0, "waiting"),
        (1, "applied"),
        (1, "waiting"),
    ]
    with session_scope(db_engine) as session:
        game_id = insert_game(session).id
        for number, (position, status) in enumerate(orders):
            inbound_id = record_inbound(session, message_key=f"<{number}@x>", raw=RAW, source="r")
            assert inbound_id is not None
            session.add(
                QueuedOrderRow(
                    game_id=game_id,
                    position=position,
                    inbound_id=inbound_id,
                    lines=f"HIRE {number}",
                    status=status,
                )
            )
    with session_scope(db_engine) as session:
        assert [o.lines for o in waiting_orders(session, game_id, 1)] == ["HIRE 0", "HIRE 3"]
        assert [o.lines for o in waiting_orders(session, game_id)] == ["HIRE 0", "HIRE 1", "HIRE 3"]


def test_an_outgoing_message_id_is_queued_once(db_engine: Engine) -> None:
    first = queue_email(db_engine, "<reply-1@pbem>")
    again = queue_email(db_engine, "<reply-1@pbem>", to="someone.else@example.org")
    assert first is not None and again is None
    with session_scope(db_engine) as session:
        queued = session.exec(select(OutboxRow)).all()
    assert [(row.message_id, row.to_address, row.raw) for row in queued] == [
        ("<reply-1@pbem>", "player0@example.org", RAW)
    ]


def test_due_outbox_is_pending_mail_whose_time_has_come_longest_waiting_first(
    db_engine: Engine,
) -> None:
    now = utc_now()
    for key in ("<a@p>", "<b@p>", "<c@p>", "<d@p>"):
        queue_email(db_engine, key)
    with session_scope(db_engine) as session:
        rows = {row.message_id: row for row in session.exec(select(OutboxRow)).all()}
        rows["<a@p>"].next_attempt_at = now - timedelta(minutes=1)
        rows["<b@p>"].next_attempt_at = now - timedelta(minutes=9)
        rows["<c@p>"].next_attempt_at = now + timedelta(minutes=5)
        rows["<d@p>"].next_attempt_at = now - timedelta(minutes=20)
        rows["<d@p>"].status = "sent"
    with session_scope(db_engine) as session:
        assert _message_ids(session, due_outbox_ids(session, now)) == ["<b@p>", "<a@p>"]


@pytest.mark.postgres
def test_two_senders_on_postgresql_never_claim_the_same_email(postgres_url: str) -> None:
    engine = open_database(postgres_url)
    try:
        for key in ("<a@p>", "<b@p>"):
            queue_email(engine, key)
        with session_scope(engine) as first, session_scope(engine) as second:
            # Fail rather than hang should the claim ever wait for the other sender's lock.
            second.connection().execute(text("SET LOCAL lock_timeout = '2s'"))
            claimed_first = _message_ids(first, due_outbox_ids(first, limit=1))
            claimed_second = _message_ids(second, due_outbox_ids(second))
        assert claimed_first == ["<a@p>"]
        assert claimed_second == ["<b@p>"]
    finally:
        engine.dispose()


def test_the_sending_engine_alone_commits_without_waiting_for_the_disk(db_engine: Engine) -> None:
    """The engine the daemon marks emails sent through skips the disk flush of each commit
    (losing a mark sends the email again; nothing is lost); the database's own engine, which
    commits a handled email before it leaves the IMAP inbox, does not. Both see each other's
    commits at once."""
    queued = queue_email(db_engine, "<a@p>")
    assert queued is not None and queued.id is not None
    sending = sending_engine(db_engine)
    try:
        with session_scope(sending) as session:
            assert _waits_for_disk(session) is False
            email = claim_outbox(session, queued.id)
            assert email is not None
            email.status, email.attempts, email.sent_at = "sent", 1, utc_now()
            record_outbox(session, email)
        with session_scope(db_engine) as session:
            assert _waits_for_disk(session) is True
            row = session.get(OutboxRow, queued.id)
            assert row is not None and (row.status, row.attempts) == ("sent", 1)
    finally:
        sending.dispose()


def test_an_in_memory_database_sends_through_its_own_engine() -> None:
    engine = open_database("sqlite://")
    try:
        assert sending_engine(engine) is engine
    finally:
        engine.dispose()


def _waits_for_disk(session: Session) -> bool:
    """Whether a commit returns only once it is on disk: PostgreSQL's synchronous_commit on,
    SQLite's synchronous FULL (2) rather than NORMAL (1)."""
    connection = session.connection()
    if connection.dialect.name == "postgresql":
        return bool(connection.execute(text("SHOW synchronous_commit")).scalar_one() == "on")
    return bool(connection.execute(text("PRAGMA synchronous")).scalar_one() == 2)


def test_mail_state_is_remembered_and_overwritten(db_engine: Engine) -> None:
    with session_scope(db_engine) as session:
        assert get_mail_state(session, "uidvalidity:INBOX") is None
        set_mail_state(session, "uidvalidity:INBOX", "17")
        assert get_mail_state(session, "uidvalidity:INBOX") == "17"
    with session_scope(db_engine) as session:
        set_mail_state(session, "uidvalidity:INBOX", "18")
    with session_scope(db_engine) as session:
        assert get_mail_state(session, "uidvalidity:INBOX") == "18"


def _message_ids(session: Session, ids: list[int]) -> list[str]:
    rows = [session.get(OutboxRow, row_id) for row_id in ids]
    return [row.message_id for row in rows if row is not None]


def test_a_sent_mark_waits_for_the_write_lock_and_is_written_once_it_is_free(
    db_engine: Engine,
) -> None:
    """The sending engine's marks wait for another transaction's write (on SQLite by looking
    again every fraction of a millisecond, its connections never sleeping in SQLite's own
    busy wait; on PostgreSQL on the row's lock), and lose nothing of that transaction."""
    queued = queue_email(db_engine, "<a@p>")
    assert queued is not None and queued.id is not None
    row_id = queued.id
    sending = sending_engine(db_engine)
    holder = db_engine.connect()
    holder.execute(text("UPDATE outbox SET attempts = attempts + 1 WHERE id = :id"), {"id": row_id})

    def mark() -> None:
        with sending.connect() as connection:
            try:
                connection.execute(
                    text("UPDATE outbox SET status = 'sent' WHERE id = :id"), {"id": row_id}
                )
                connection.commit()
            except OperationalError:
                connection.rollback()
                raise

    try:
        if db_engine.dialect.name == "sqlite":
            with pytest.raises(OperationalError, match="locked"):
                mark()  # no wait of SQLite's own
            with Session(sending) as session, pytest.raises(sqlite3.OperationalError):
                take_write_lock(session)  # told before any statement, nothing to roll back
        release = threading.Timer(0.3, holder.commit)
        release.start()
        retry_while_locked(mark)
        release.join()
    finally:
        holder.close()
        sending.dispose()
    with session_scope(db_engine) as session:
        row = session.get(OutboxRow, row_id)
        assert row is not None and (row.status, row.attempts) == ("sent", 1)


def test_only_a_locked_database_is_tried_again() -> None:
    tries: list[int] = []

    def fails() -> None:
        tries.append(1)
        raise OperationalError("UPDATE outbox", {}, sqlite3.OperationalError("no such table"))

    with pytest.raises(OperationalError, match="no such table"):
        retry_while_locked(fails)
    assert len(tries) == 1
