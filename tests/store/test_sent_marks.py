"""The sending process's marks beside a SQLite database (pbem.store.sent_marks): written while
the daemon holds the database's write lock, moved into the outbox once it is free, kept by a
killed process for the next, and never marking an email of a database made anew."""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import Connection, Engine, text
from sqlmodel import Session

from pbem.daemon.outbox import send_outbox
from pbem.mail.config import parse_smtp_url
from pbem.mail.smtp import SmtpSender
from pbem.settings import Settings
from pbem.store import OutboxRow, open_database, sending_engine, utc_now
from pbem.store.sent_marks import SentMarks, marks_path, move_marks_left
from tests.store.test_store_mail import queue_email
from tests.support.smtpd import running_smtpd


@pytest.fixture
def sqlite_engine(tmp_path: Path) -> Iterator[Engine]:
    engine = open_database(f"sqlite:///{tmp_path / 'pbem.sqlite3'}")
    yield engine
    engine.dispose()


def hold_write_lock(engine: Engine) -> Connection:
    """Another connection's write transaction, as the daemon's handling of an email holds."""
    holder = engine.connect()
    holder.execute(text("UPDATE outbox SET attempts = attempts"))
    return holder


def queued(engine: Engine, key: str) -> tuple[int, str]:
    row = queue_email(engine, key)
    assert row is not None and row.id is not None
    return row.id, row.message_id


def status_of(engine: Engine, row_id: int) -> tuple[str, bool]:
    with Session(engine) as session:
        row = session.get(OutboxRow, row_id)
        assert row is not None
        return row.status, row.sent_at is not None


def open_marks(engine: Engine) -> SentMarks:
    marks = SentMarks.beside(engine)
    assert marks is not None
    return marks


def test_a_mark_is_moved_into_the_outbox_at_once_when_the_lock_is_free(
    sqlite_engine: Engine,
) -> None:
    row_id, message_id = queued(sqlite_engine, "<a@p>")
    marks = open_marks(sqlite_engine)
    sent_at = utc_now()
    marks.mark(row_id, message_id, sent_at)
    assert marks.move(sqlite_engine, wait=False)
    assert status_of(sqlite_engine, row_id) == ("sent", True)
    with Session(sqlite_engine) as session:
        row = session.get(OutboxRow, row_id)
        assert row is not None and row.sent_at == sent_at
    assert marks.waiting == {}
    assert marks.connection.execute("SELECT count(*) FROM sent").fetchone() == (0,)
    marks.close()


def test_while_the_lock_is_held_a_mark_waits_in_its_file_and_a_killed_process_leaves_it(
    sqlite_engine: Engine,
) -> None:
    row_id, message_id = queued(sqlite_engine, "<a@p>")
    write_lock = hold_write_lock(sqlite_engine)
    marks = open_marks(sqlite_engine)
    marks.mark(row_id, message_id, utc_now())
    marking = sending_engine(sqlite_engine)  # as the sending process's: no busy wait
    began = time.monotonic()
    assert not marks.move(marking, wait=False)
    assert time.monotonic() - began < 1  # told at once, not after SQLite's wait
    assert status_of(sqlite_engine, row_id) == ("pending", False)
    assert set(marks.waiting) == {row_id}
    marks.connection.close()  # killed: nothing more is written

    again = open_marks(sqlite_engine)  # the next sending process
    assert set(again.waiting) == {row_id}
    write_lock.commit()
    assert again.move(marking, wait=True)
    assert status_of(sqlite_engine, row_id) == ("sent", True)
    again.close()
    write_lock.close()
    marking.dispose()


def test_the_sending_limits_count_the_marks_still_waiting(sqlite_engine: Engine) -> None:
    marks = open_marks(sqlite_engine)
    now = utc_now()
    for number, age in enumerate((timedelta(seconds=5), timedelta(hours=2))):
        row_id, message_id = queued(sqlite_engine, f"<{number}@p>")
        marks.mark(row_id, message_id, now - age)
    assert marks.sent_since(now - timedelta(minutes=1)) == 1
    assert marks.sent_since(now - timedelta(days=1)) == 2
    marks.close()


def test_a_mark_left_beside_a_database_made_anew_marks_nothing(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'pbem.sqlite3'}"
    old = open_database(url)
    old_id, old_message_id = queued(old, "<old@p>")
    marks = open_marks(old)
    marks.mark(old_id, old_message_id, utc_now())
    marks.connection.close()  # killed before moving it
    old.dispose()
    for suffix in ("", "-wal", "-shm"):
        Path(f"{tmp_path / 'pbem.sqlite3'}{suffix}").unlink(missing_ok=True)

    new = open_database(url)
    new_id, _ = queued(new, "<new@p>")
    assert new_id == old_id  # the same row number, another email
    move_marks_left(new)
    assert status_of(new, new_id) == ("pending", False)
    assert open_marks(new).waiting == {}  # and the stale mark is gone
    new.dispose()


def test_move_marks_left_moves_what_a_killed_sending_process_left(sqlite_engine: Engine) -> None:
    row_id, message_id = queued(sqlite_engine, "<a@p>")
    assert marks_path(sqlite_engine) is not None
    move_marks_left(sqlite_engine)  # nothing there: no file is made
    assert not marks_path(sqlite_engine).exists()  # type: ignore[union-attr]
    marks = open_marks(sqlite_engine)
    marks.mark(row_id, message_id, utc_now())
    marks.connection.close()
    move_marks_left(sqlite_engine)
    assert status_of(sqlite_engine, row_id) == ("sent", True)


@pytest.mark.postgres
def test_postgresql_and_an_in_memory_database_keep_their_marks_in_the_outbox(
    postgres_url: str,
) -> None:
    for url in (postgres_url, "sqlite://"):
        engine = open_database(url)
        assert SentMarks.beside(engine) is None
        move_marks_left(engine)  # nothing to do
        engine.dispose()


def test_a_pass_sends_every_email_while_the_lock_is_held_and_marks_them_once_it_is_free(
    sqlite_engine: Engine,
) -> None:
    """As the sending process sends while the daemon handles an email after another: nothing
    waits for the lock but the marks, which the pass's end moves into the outbox."""
    emails = [queued(sqlite_engine, f"<{number}@p>") for number in range(5)]
    marking = sending_engine(sqlite_engine)
    marks = open_marks(sqlite_engine)
    settings = Settings(database_url=str(sqlite_engine.url), address="pbem@example.org")
    with running_smtpd() as server:
        sender = SmtpSender(parse_smtp_url(server.url()))
        write_lock = hold_write_lock(sqlite_engine)
        with ThreadPoolExecutor(1) as pool:
            passing = pool.submit(send_outbox, marking, sender, settings, utc_now, marks=marks)
            assert len(server.wait_for(len(emails), timeout=10)) == len(emails)
            assert {status_of(sqlite_engine, row_id) for row_id, _ in emails} == {
                ("pending", False)
            }
            write_lock.commit()
            report = passing.result(timeout=30)
        sender.close()
        assert len(server.received()) == len(emails)  # each once
    assert report.sent == len(emails)
    assert {status_of(sqlite_engine, row_id) for row_id, _ in emails} == {("sent", True)}
    assert marks.waiting == {}
    write_lock.close()
    marks.close()
    marking.dispose()
