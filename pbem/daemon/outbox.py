"""Sending the outbox: each due email to the sender, its row updated in a transaction of its own."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Engine

from pbem.mail.timing import next_attempt_delay
from pbem.mail.transport import Sender, SendResult
from pbem.moderator.desk import Desk
from pbem.moderator.undeliverable import record_undeliverable
from pbem.settings import Settings
from pbem.store import OutboxRow, due_outbox, session_scope

log = logging.getLogger("pbem.daemon")


@dataclass
class SendReport:
    sent: int = 0
    deferred: int = 0
    failed: int = 0


def send_outbox(
    engine: Engine, sender: Sender, settings: Settings, clock: Callable[[], datetime]
) -> SendReport:
    """Send every due email once; stop early when the mail server cannot be reached at all.

    One row per transaction, so an email that was handed over is marked sent before the next is
    tried: a crash resends at most the one in flight.
    """
    report = SendReport()
    while True:
        with session_scope(engine) as session:
            rows = due_outbox(session, now=clock(), limit=1)
            if not rows:
                return report
            row = rows[0]
            result = sender.send(row.raw, [row.to_address], settings.address)
            unreachable = _record(row, result, clock())
            session.add(row)
            if row.status == "failed" and row.kind != "gm":
                record_undeliverable(
                    Desk(session, settings, clock),
                    row.to_address,
                    row.last_error or "",
                    row.game_id,
                )
        _count(report, row)
        if unreachable:
            return report


def _record(row: OutboxRow, result: SendResult, now: datetime) -> bool:
    """Update `row` from the result; True when the server was not reached (no reply code)."""
    if result.permanent:
        failure = result.permanent[0]
        row.status = "failed"
        row.last_error = f"{failure.code} {failure.reason}"
        log.error("outbox %s to %s refused for good: %s", row.id, row.to_address, row.last_error)
        return False
    if result.temporary:
        failure = result.temporary[0]
        row.attempts += 1
        row.last_error = f"{failure.code} {failure.reason}"
        row.next_attempt_at = now + timedelta(seconds=next_attempt_delay(row.attempts))
        log.warning(
            "outbox %s to %s deferred (attempt %d): %s",
            row.id,
            row.to_address,
            row.attempts,
            row.last_error,
        )
        return failure.code == 0
    row.status = "sent"
    row.sent_at = now
    log.info("sent %s (%s) to %s", row.message_id, row.kind, row.to_address)
    return False


def _count(report: SendReport, row: OutboxRow) -> None:
    if row.status == "sent":
        report.sent += 1
    elif row.status == "failed":
        report.failed += 1
    else:
        report.deferred += 1
