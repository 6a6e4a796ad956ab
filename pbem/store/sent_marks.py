"""Emails the sending process sent, marked in a file of their own beside a SQLite database until
the database's write lock is free (issue 14).

SQLite lets one connection write at a time, and the daemon's handling of an incoming email holds
the write lock for most of the few milliseconds it takes. A sending process that marked each
email sent in the database got the lock only between two incoming emails: while orders poured
in it sent fewer emails than the daemon wrote, and the rest waited for the orders to stop (140
of a wave's 240 emails in `bench.throughput`; none on PostgreSQL, whose writers lock rows).

So on a SQLite file the sending process marks each email sent here, in `<database>-sent`, which
nothing else writes, and moves the marks into the outbox when the database's lock is free: tried
after each email without waiting, and waited for once a pass has nothing left to send. Until
then the sending process knows its marks: it does not send those emails again, and the sending
limits count them. A mark here survives a crash of pbem as a mark in the database does (WAL,
synchronous NORMAL); the next sending process, or the next daemon, moves what a killed one
left. A mark names its email by row and Message-ID, so a file left beside a database made anew
marks nothing in it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import Engine, bindparam, update
from sqlalchemy.exc import OperationalError

from pbem.store.database import (
    retry_while_locked,
    session_scope,
    sqlite_file,
    take_write_lock,
    write_locked,
)
from pbem.store.tables import OutboxRow, table_of

SUFFIX = "-sent"
_OUTBOX = table_of(OutboxRow)

_MARK_SENT = (
    update(_OUTBOX)
    .where(_OUTBOX.c.id == bindparam("mark_id"))
    .where(_OUTBOX.c.message_id == bindparam("mark_message_id"))
    .values(status="sent", sent_at=bindparam("mark_sent_at"))
)


@dataclass(frozen=True)
class SentMark:
    email_id: int
    message_id: str
    sent_at: datetime


@dataclass
class SentMarks:
    """The sending process's marks not yet in the outbox, in its file and in `waiting`."""

    connection: sqlite3.Connection
    waiting: dict[int, SentMark] = field(default_factory=dict)

    @classmethod
    def beside(cls, engine: Engine) -> SentMarks | None:
        """The marks file of `engine`'s SQLite file, opened (made if need be) with the marks a
        killed process left; None on PostgreSQL and in memory, where the database is written
        by rows or by one connection."""
        path = marks_path(engine)
        return None if path is None else cls.open(path)

    @classmethod
    def open(cls, path: Path) -> SentMarks:
        """The marks file at `path`, made if need be, with the marks a killed process left."""
        connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        connection.execute("PRAGMA journal_mode = WAL")
        connection.execute("PRAGMA synchronous = NORMAL")
        connection.execute(
            "CREATE TABLE IF NOT EXISTS sent"
            " (email_id INTEGER PRIMARY KEY, message_id TEXT NOT NULL, sent_at TEXT NOT NULL)"
        )
        marks = cls(connection)
        for email_id, message_id, sent_at in connection.execute("SELECT * FROM sent"):
            marks.waiting[email_id] = SentMark(
                email_id, message_id, datetime.fromisoformat(sent_at).astimezone(UTC)
            )
        return marks

    def mark(self, email_id: int, message_id: str, sent_at: datetime) -> None:
        """Committed here before the next email is tried, as a mark in the database would be."""
        self.connection.execute(
            "INSERT OR REPLACE INTO sent VALUES (?, ?, ?)",
            (email_id, message_id, sent_at.isoformat()),
        )
        self.waiting[email_id] = SentMark(email_id, message_id, sent_at)

    def sent_since(self, since: datetime) -> int:
        """The marks not yet in the outbox that the sending limits count from `since` on."""
        return sum(mark.sent_at >= since for mark in self.waiting.values())

    def move(self, engine: Engine, *, wait: bool) -> bool:
        """Move the waiting marks into the outbox: True when done (or none waited), False when
        the database's write lock was taken and `wait` was False. `engine` is a sending engine
        (`store.sending_engine`), whose connections are told of the lock at once."""
        if not self.waiting:
            return True
        marks = list(self.waiting.values())
        if wait:
            retry_while_locked(lambda: _write(engine, marks))
        else:
            try:
                _write(engine, marks)
            except (OperationalError, sqlite3.OperationalError) as error:
                if not write_locked(error):
                    raise
                return False
        self._forget(marks)
        return True

    def close(self) -> None:
        self.connection.close()

    def _forget(self, marks: Iterable[SentMark]) -> None:
        """Once in the outbox: a crash before this only moves the same marks again."""
        ids = [(mark.email_id,) for mark in marks]
        self.connection.execute("BEGIN")
        self.connection.executemany("DELETE FROM sent WHERE email_id = ?", ids)
        self.connection.execute("COMMIT")
        for (email_id,) in ids:
            del self.waiting[email_id]


def marks_path(engine: Engine) -> Path | None:
    database = sqlite_file(engine.url)
    return None if database is None else Path(database + SUFFIX)


def move_marks_left(engine: Engine) -> None:
    """Move the marks a killed sending process left into the outbox, if it left any: a daemon
    that sends from its own process does this before its first pass."""
    path = marks_path(engine)
    if path is None or not path.exists():
        return
    marks = SentMarks.open(path)
    try:
        marks.move(engine, wait=True)
    finally:
        marks.close()


def _write(engine: Engine, marks: list[SentMark]) -> None:
    with session_scope(engine) as session:
        take_write_lock(session)
        session.execute(
            _MARK_SENT,
            [
                {"mark_id": m.email_id, "mark_message_id": m.message_id, "mark_sent_at": m.sent_at}
                for m in marks
            ],
        )
