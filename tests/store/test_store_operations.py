"""The operations queries on both databases: sending counts, the outbox by view, stale deferred
mail, deadlines, and the daemons' status rows."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import Engine
from sqlmodel import Session

from pbem.store import OutboxRow, queue_outbox, session_scope, utc_now
from pbem.store.operations import (
    OutboxCounts,
    all_daemon_status,
    daemon_status,
    games_with_deadlines,
    outbox_counts,
    outbox_rows,
    outbox_total,
    sent_since,
    stale_deferred,
)
from tests.support.db import insert_game


def queue(
    engine: Engine,
    name: str,
    status: str,
    attempts: int = 0,
    age_hours: float = 0,
    to: str = "a@example.org",
) -> int:
    now = utc_now()
    with session_scope(engine) as session:
        new_id = queue_outbox(session, message_id=name, to_address=to, kind="reply", raw=b"x")
        row = session.get(OutboxRow, new_id)
        assert row is not None and row.id is not None
        row.status, row.attempts = status, attempts  # type: ignore[assignment]
        row.created_at = now - timedelta(hours=age_hours)
        row.sent_at = now - timedelta(hours=age_hours) if status == "sent" else None
        session.add(row)
        return row.id


def test_counts_views_and_sending_figures(db_engine: Engine) -> None:
    queue(db_engine, "new", "pending")
    deferred = queue(db_engine, "tried", "pending", attempts=2)
    queue(db_engine, "refused", "failed", attempts=1)
    queue(db_engine, "sent-now", "sent")
    queue(db_engine, "sent-earlier", "sent", age_hours=2)
    queue(db_engine, "sent-yesterday", "sent", age_hours=30)
    now = utc_now()

    with Session(db_engine) as session:
        assert outbox_counts(session) == OutboxCounts(pending=1, deferred=1, failed=1)
        assert [row.id for row in outbox_rows(session, ["deferred"])] == [deferred]
        assert len(outbox_rows(session, ["pending", "deferred", "failed"])) == 3
        assert sent_since(session, now - timedelta(minutes=1)) == 1
        assert sent_since(session, now - timedelta(days=1)) == 2


def test_the_outbox_shows_the_newest_rows_and_a_computer_players_mail_as_kept(
    db_engine: Engine,
) -> None:
    sent = [queue(db_engine, f"sent-{n}", "sent", age_hours=10 - n) for n in range(5)]
    kept = queue(db_engine, "to-robo", "sent", attempts=1, to="robo@bots.invalid")

    with Session(db_engine) as session:
        assert [row.id for row in outbox_rows(session, ["sent"], limit=2)] == sent[-2:]
        assert [row.id for row in outbox_rows(session, ["sent"], limit=None)] == sent
        assert outbox_total(session, ["sent"]) == 5
        assert [row.id for row in outbox_rows(session, ["kept"])] == [kept]
        assert outbox_total(session, ["sent", "kept"]) == 6


def test_a_computer_players_mail_does_not_count_against_the_sending_limits(
    db_engine: Engine,
) -> None:
    queue(db_engine, "to-ann", "sent", attempts=1, age_hours=1)
    queue(db_engine, "to-robo", "sent", attempts=1, age_hours=1, to="robo@BOTS.invalid")
    with Session(db_engine) as session:
        assert sent_since(session, utc_now() - timedelta(hours=2)) == 1


def test_only_deferred_mail_queued_before_the_cutoff_is_stale(db_engine: Engine) -> None:
    old = queue(db_engine, "old-deferred", "pending", attempts=3, age_hours=80)
    queue(db_engine, "old-untried", "pending", age_hours=80)
    queue(db_engine, "young-deferred", "pending", attempts=3, age_hours=1)
    queue(db_engine, "old-failed", "failed", attempts=3, age_hours=80)
    with session_scope(db_engine) as session:
        stale = stale_deferred(session, utc_now() - timedelta(hours=72))
        assert [row.id for row in stale] == [old]
        assert all(isinstance(row, OutboxRow) for row in stale)


def test_running_games_with_a_deadline_soonest_first(db_engine: Engine) -> None:
    now = utc_now()
    with session_scope(db_engine) as session:
        late, early, paused = (insert_game(session) for _ in range(3))
        late.deadline_at, early.deadline_at = now + timedelta(hours=5), now + timedelta(hours=1)
        paused.deadline_at, paused.status = now, "paused"
        expected = [early.id, late.id]
    with Session(db_engine) as session:
        assert [game for game, _, _ in games_with_deadlines(session)] == expected


def test_a_daemon_status_row_is_made_once_and_keeps_what_it_was_told(db_engine: Engine) -> None:
    moment = utc_now()
    with session_scope(db_engine) as session:
        row = daemon_status(session, "pbem")
        row.imap_problem, row.imap_needs_person, row.imap_told_at = "refused", True, moment
    with session_scope(db_engine) as session:
        again = daemon_status(session, "pbem")
        assert (again.imap_problem, again.imap_needs_person) == ("refused", True)
        assert again.imap_told_at == moment and again.smtp_failures == 0
    with Session(db_engine) as session:
        assert [row.name for row in all_daemon_status(session)] == ["pbem"]
