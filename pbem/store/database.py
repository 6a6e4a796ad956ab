"""Where the database is, opening it, and one unit of work.

`open_database` brings the schema to the newest revision: for a database pbem itself has just made
(tests, transcripts, the demo). The command line uses `connect_database`, which never upgrades an
existing database: a GM upgrades with `pbem db upgrade`, when the daemon is stopped.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from sqlalchemy import Engine, create_engine, event, make_url
from sqlalchemy.engine import URL
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm.exc import StaleDataError
from sqlalchemy.pool import StaticPool
from sqlmodel import Session

from pbem.store.errors import DatabaseMissing, StaleGame, StoreError
from pbem.store.migrate import check_schema, upgrade_to_head

DATABASE_URL_VARIABLE = "PBEM_DATABASE_URL"
DEFAULT_DATABASE_URL = "sqlite:///pbem.sqlite3"
SQLITE_BUSY_TIMEOUT_MS = 30_000
# retry_while_locked looks again every LOCK_PAUSE for QUICK_LOOKS seconds, then every
# LONG_LOCK_PAUSE. SQLite's own busy handler sleeps 1, 2, 5, 10 ms ..., far longer than the few
# milliseconds the daemon's handling of an email holds the write lock.
LOCK_PAUSE = 0.0002
QUICK_LOOKS = 0.01
LONG_LOCK_PAUSE = 0.005

T = TypeVar("T")


def database_url(explicit: str | None = None) -> str:
    """The URL given, else $PBEM_DATABASE_URL, else pbem.sqlite3 in the working directory."""
    return explicit or os.environ.get(DATABASE_URL_VARIABLE) or DEFAULT_DATABASE_URL


def database_engine(url: str) -> Engine:
    """An engine on `url`, its schema untouched and unchecked (`pbem db` reads and upgrades it)."""
    return _create_engine(_with_installed_driver(make_url(url)))


def open_database(url: str) -> Engine:
    """An engine on `url` whose schema has been brought up to date."""
    engine = database_engine(url)
    upgrade_to_head(engine)
    return engine


def sending_engine(engine: Engine) -> Engine:
    """An engine on `engine`'s database whose commits do not wait for the disk: the daemon
    marks the emails it sent through it (pbem.daemon.outbox), one commit per email.

    That wait was most of an email's sending time on PostgreSQL (issue 14): the fsync of each
    commit. A mark committed so is seen by every other connection at once and survives any
    crash of pbem; only a crash of the database's machine within a fraction of a second after
    it could lose it, and the email is then sent once more, the same bytes under the same
    Message-ID. Nothing is lost, as the outbox promises (docs/mail.md). Everything else keeps
    `engine`, whose commits reach the disk before an incoming email leaves the IMAP inbox.

    On SQLite its connections do not wait for the write lock (busy_timeout 0): the marks go
    through `retry_while_locked`, which looks again every fraction of a millisecond, where
    SQLite's own wait sleeps 1, 2, 5, 10 ms ..., while the daemon's handling of an email holds
    the lock a few milliseconds at a time. An in-memory SQLite database is `engine` itself:
    another engine would open another, empty database."""
    url = engine.url
    if url.get_backend_name() == "sqlite" and sqlite_file(url) is None:
        return engine
    return _create_engine(url, wait_for_disk=False)


def sqlite_file(url: URL) -> str | None:
    """The file of a SQLite database; None for PostgreSQL, and for SQLite in memory."""
    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        return None
    return url.database


def connect_database(url: str, *, create: bool) -> Engine:
    """An engine on `url` whose schema is the one this code needs, never upgrading it.

    An empty database is created at the newest revision when `create` (a command that writes),
    else DatabaseMissing. A database behind or ahead of this code is SchemaMismatch.
    """
    if not create and _missing_sqlite_file(_with_installed_driver(make_url(url))):
        raise DatabaseMissing(f"no pbem database at {url} yet (`pbem start` creates one)")
    engine = database_engine(url)
    try:
        if check_schema(engine).empty:
            if not create:
                raise DatabaseMissing(f"no pbem tables in {url} yet (`pbem start` creates them)")
            upgrade_to_head(engine)
    except StoreError:
        engine.dispose()
        raise
    return engine


def retry_while_locked(work: Callable[[], T]) -> T:
    """`work()` again, after a short pause, while SQLite answers that the database is locked, for
    up to SQLITE_BUSY_TIMEOUT_MS; `work` is one whole transaction that rolls itself back when
    it raises. Any other error, and PostgreSQL's, at once."""
    began = time.monotonic()
    while True:
        try:
            return work()
        except (OperationalError, sqlite3.OperationalError) as error:
            waited = time.monotonic() - began
            if not write_locked(error) or waited > SQLITE_BUSY_TIMEOUT_MS / 1000:
                raise
        time.sleep(LOCK_PAUSE if waited < QUICK_LOOKS else LONG_LOCK_PAUSE)


def take_write_lock(session: Session) -> None:
    """On SQLite, begin the session's transaction by taking the write lock (BEGIN IMMEDIATE):
    with the sending engine's busy_timeout 0 a locked database says so at once, before any
    statement ran, so there is nothing to roll back (see `retry_while_locked`). A no-op on
    PostgreSQL, whose writers lock rows, not the database."""
    connection = session.connection()
    if connection.dialect.name != "sqlite":
        return
    driver = connection.connection.driver_connection
    if driver is not None and not driver.in_transaction:
        driver.execute("BEGIN IMMEDIATE")


def write_locked(error: OperationalError | sqlite3.OperationalError) -> bool:
    """SQLite's answer that another connection holds the write lock (the only error worth
    trying again after a pause)."""
    driver_error = error.orig if isinstance(error, OperationalError) else error
    return isinstance(driver_error, sqlite3.OperationalError) and "locked" in str(driver_error)


@contextmanager
def session_scope(engine: Engine) -> Iterator[Session]:
    """One transaction: committed when the block ends normally, rolled back when it raises.

    Closing the session rolls back whatever was not committed. Rows stay readable after the
    block (no expiry on commit), so a caller may return them.
    """
    with Session(engine, expire_on_commit=False) as session:
        try:
            yield session
            session.commit()
        except StaleDataError as exc:
            raise StaleGame(f"the game changed in another process: {exc}") from exc


def _with_installed_driver(url: URL) -> URL:
    # SQLAlchemy 2.0 would pick psycopg2 for a bare postgresql:// URL; pbem ships psycopg 3.
    if url.drivername in ("postgresql", "postgres"):
        return url.set(drivername="postgresql+psycopg")
    return url


def _missing_sqlite_file(url: URL) -> bool:
    """Connecting would create the file: a reading command must not leave one behind."""
    path = sqlite_file(url)
    return path is not None and not os.path.exists(path)


def _create_engine(url: URL, wait_for_disk: bool = True) -> Engine:
    """`wait_for_disk` False: see `sending_engine`."""
    backend = url.get_backend_name()
    if backend == "postgresql":
        return create_engine(url if wait_for_disk else _lazy_commits(url), pool_pre_ping=True)
    if backend == "sqlite":
        return _create_sqlite_engine(url, wait_for_disk)
    raise StoreError(f"unsupported database {url.render_as_string()!r}: use sqlite or postgresql")


def _lazy_commits(url: URL) -> URL:
    """`url` with synchronous_commit off for its sessions, after the URL's own server options
    (a search_path, say)."""
    given = url.query.get("options", ())
    options = [given] if isinstance(given, str) else list(given)
    return url.update_query_dict({"options": " ".join([*options, "-c synchronous_commit=off"])})


def _create_sqlite_engine(url: URL, wait_for_disk: bool) -> Engine:
    in_memory = sqlite_file(url) is None
    options: dict[str, Any] = {"connect_args": {"check_same_thread": False}}
    if in_memory:
        # One shared connection, or every new connection would see a new, empty database.
        options["poolclass"] = StaticPool
    engine = create_engine(url, **options)
    event.listen(engine, "connect", _configure_sqlite_connection)
    if not wait_for_disk:
        event.listen(engine, "connect", _commit_without_fsync)
    return engine


def _configure_sqlite_connection(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA foreign_keys = ON")
    _use_wal(cursor)
    cursor.close()


def _commit_without_fsync(dbapi_connection: Any, _record: Any) -> None:
    """In WAL mode (`_use_wal`, first), NORMAL skips the fsync of each commit and stays safe from
    corruption; the next commit with FULL on any connection takes it to the disk too. No wait
    for the write lock: `retry_while_locked` waits instead (see `sending_engine`)."""
    dbapi_connection.execute("PRAGMA synchronous = NORMAL")
    dbapi_connection.execute("PRAGMA busy_timeout = 0")


def _use_wal(cursor: Any) -> None:
    """WAL lets the dashboard read while the daemon writes; an in-memory database ignores it.

    Switching needs the file to itself and SQLite does not wait for that (busy_timeout does not
    apply), so when several connections open a new file together, all but one are refused:
    those look again and find it switched. A file already in WAL is not asked again."""
    deadline = time.monotonic() + SQLITE_BUSY_TIMEOUT_MS / 1000
    while cursor.execute("PRAGMA journal_mode").fetchone()[0] not in ("wal", "memory"):
        try:
            cursor.execute("PRAGMA journal_mode = WAL")
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)
