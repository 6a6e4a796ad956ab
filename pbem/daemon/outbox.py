"""Sending the outbox: each due email to the sender, its row updated in a transaction of its own,
within the provider's sending limits.

What the server's answer means (`pbem.mail.smtp_replies`) decides what happens next:
- sent: the row is `sent`;
- refused for good: `failed`, and the GM hears of it (`record_undeliverable`);
- temporary (4xx, no connection): tried again after 1 min, 2, 4, ... at most hourly;
- a sending limit (rate or quota): the row waits, and so does all sending, a minute doubling to
  an hour (`SendGate`);
- the login or TLS refused: nothing is sent until the gate opens again (a minute doubling to an
  hour), no row is charged for it; the daemon tells the GM.
Deferred mail (tried, not yet sent) older than `give_up_hours` is given up: `failed`, reported.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import Engine
from sqlalchemy.exc import OperationalError
from sqlmodel import Session

from pbem.mail.limits import SendLimits
from pbem.mail.timing import LOGIN_BACKOFF, SEND_BACKOFF, Backoff, next_attempt_delay
from pbem.mail.transport import Sender, SendResult
from pbem.moderator.desk import Desk
from pbem.moderator.undeliverable import record_undeliverable
from pbem.settings import Settings
from pbem.store import (
    ClaimedEmail,
    claim_outbox,
    due_outbox_ids,
    record_outbox,
    retry_while_locked,
    session_scope,
    take_write_lock,
)
from pbem.store.operations import sent_since, stale_deferred
from pbem.store.sent_marks import SentMarks

log = logging.getLogger("pbem.daemon")

MINUTE = timedelta(minutes=1)
# Due rows read in one query; each is still claimed, sent and committed on its own.
CLAIM_BATCH = 50
DAY = timedelta(days=1)


@dataclass
class SendReport:
    sent: int = 0
    deferred: int = 0
    failed: int = 0
    given_up: int = 0
    problem: str | None = None
    """The server could not be reached, or refused the session: a transport failure."""
    needs_person: bool = False
    """The problem is a refused login or TLS: only a change of settings cures it."""
    held_back: str | None = None
    """Why sending stopped before the outbox was empty: a sending limit, or a closed gate."""
    paused: bool = False
    """Nothing was tried: the gate was closed."""


@dataclass
class SendGate:
    """Whether sending may go on: closed for a while after a sending limit answer or a refused
    login, longer each time in a row, open again after the first email that goes out."""

    throttle: Backoff = SEND_BACKOFF
    login: Backoff = LOGIN_BACKOFF
    open_at: datetime | None = None
    closures: int = 0
    reason: str | None = None
    needs_person: bool = False
    _last: Backoff | None = field(default=None, init=False)

    def is_open(self, now: datetime) -> bool:
        return self.open_at is None or now >= self.open_at

    def close(self, now: datetime, reason: str, needs_person: bool) -> datetime:
        backoff = self.login if needs_person else self.throttle
        self.closures = self.closures + 1 if backoff is self._last else 1
        self._last = backoff
        self.open_at = now + timedelta(seconds=backoff.delay(self.closures))
        self.reason, self.needs_person = reason, needs_person
        return self.open_at

    def reopen(self) -> None:
        self.open_at, self.closures, self.reason, self.needs_person = None, 0, None, False
        self._last = None


def send_outbox(
    engine: Engine,
    sender: Sender,
    settings: Settings,
    clock: Callable[[], datetime],
    *,
    limits: SendLimits | None = None,
    gate: SendGate | None = None,
    alive: Callable[[], None] = lambda: None,
    marks: SentMarks | None = None,
) -> SendReport:
    """Send every due email once, as far as `limits` and `gate` allow; stop early when the
    mail server cannot be reached at all or refuses the session.

    Due rows are read `CLAIM_BATCH` at a time, then each is claimed (locked) again, sent and
    committed in a transaction of its own, so an email that was handed over is marked sent
    before the next is tried: a crash resends at most the one in flight, and a row another
    daemon sent meanwhile is skipped. `alive` is called before each email. With `marks` (the
    sending process on a SQLite file) an email sent is marked there, and the marks are moved
    into the outbox when the database's write lock is free (pbem.store.sent_marks).
    """
    gate = gate or SendGate()
    outbox_pass = _Pass(engine, sender, settings, clock, limits, gate, marks, alive)
    report = outbox_pass.report
    report.given_up = give_up_stale(engine, settings, clock)
    if not gate.is_open(clock()):
        report.held_back = f"sending paused until {gate.open_at:%H:%M:%S} UTC: {gate.reason}"
        report.paused = True
        return report
    outbox_pass.send_due()
    if marks is not None:
        marks.move(engine, wait=True)
    return report


@dataclass
class _Pass:
    """One pass over the outbox: what it sends with, and its report."""

    engine: Engine
    sender: Sender
    settings: Settings
    clock: Callable[[], datetime]
    limits: SendLimits | None
    gate: SendGate
    marks: SentMarks | None
    alive: Callable[[], None]
    report: SendReport = field(default_factory=SendReport)

    def send_due(self) -> None:
        while True:
            with Session(self.engine, expire_on_commit=False) as session:
                batch = self._due(session)
                if not batch:
                    return
                for row_id in batch:
                    self.alive()
                    row = claim_outbox(session, row_id)
                    if row is None:
                        continue  # another daemon sent it since the batch was read
                    if self._send_row(session, row):
                        return

    def _due(self, session: Session) -> list[int]:
        """Due rows, but those marked sent that wait to be moved into the outbox."""
        if self.marks is None:
            return due_outbox_ids(session, now=self.clock(), limit=CLAIM_BATCH)
        waiting = self.marks.waiting
        due = due_outbox_ids(session, now=self.clock(), limit=CLAIM_BATCH + len(waiting))
        return [row_id for row_id in due if row_id not in waiting]

    def _send_row(self, session: Session, row: ClaimedEmail) -> bool:
        """Send one claimed row and commit what became of it; True when sending must stop."""
        report, gate, clock = self.report, self.gate, self.clock
        if self.limits is not None and self._room(session, clock()) == 0:
            report.held_back = f"the sending limit ({self.limits}) is reached"
            log.info("outbox: %s; the rest waits", report.held_back)
            session.rollback()
            return True
        result = self.sender.send(row.raw, [row.to_address], self.settings.address)
        if result.blocked:
            report.problem, report.needs_person = result.blocked, True
            until = gate.close(clock(), result.blocked, needs_person=True)
            log.error("sending stopped until %s: %s", f"{until:%H:%M:%S}", result.blocked)
            session.rollback()
            return True
        unreachable = _record(row, result, clock(), gate)
        self._commit(session, row)
        _count(report, row)
        if row.status == "sent":
            gate.reopen()
        if result.throttled:
            report.held_back = f"the provider's sending limit: {row.last_error}"
            return True
        if unreachable:
            report.problem = row.last_error
            return True
        return False

    def _commit(self, session: Session, row: ClaimedEmail) -> None:
        if self.marks is not None and row.status == "sent" and row.sent_at is not None:
            session.rollback()  # the claim; the mark goes to the marks file
            self.marks.mark(row.id, row.message_id, row.sent_at)
            self.marks.move(self.engine, wait=False)
            return
        retry_while_locked(lambda: _commit_outcome(session, row, self.settings, self.clock))

    def _room(self, session: Session, now: datetime) -> int | None:
        limits = self.limits
        if limits is None or not (limits.per_minute or limits.per_day):
            return None  # no need to count
        minute, day = now - MINUTE, now - DAY
        if self.marks is not None:
            waiting_minute, waiting_day = self.marks.sent_since(minute), self.marks.sent_since(day)
        else:
            waiting_minute = waiting_day = 0
        return limits.room(
            sent_since(session, minute) + waiting_minute, sent_since(session, day) + waiting_day
        )


def _commit_outcome(
    session: Session, row: ClaimedEmail, settings: Settings, clock: Callable[[], datetime]
) -> None:
    """Write and commit what became of `row`, or roll it all back (to be tried again)."""
    take_write_lock(session)
    try:
        record_outbox(session, row)
        if row.status == "failed" and row.kind != "gm":
            record_undeliverable(
                Desk(session, settings, clock), row.to_address, row.last_error or "", row.game_id
            )
        session.commit()
    except OperationalError:
        session.rollback()
        raise


def give_up_stale(engine: Engine, settings: Settings, clock: Callable[[], datetime]) -> int:
    """Fail and report every deferred email older than `settings.give_up_hours`; how many."""
    return retry_while_locked(lambda: _give_up_stale(engine, settings, clock))


def _give_up_stale(engine: Engine, settings: Settings, clock: Callable[[], datetime]) -> int:
    before = clock() - timedelta(hours=settings.give_up_hours)
    with session_scope(engine) as session:
        rows = stale_deferred(session, before)
        for row in rows:
            row.status = "failed"
            row.last_error = (
                f"given up after {settings.give_up_hours:g} h and {row.attempts} attempts: "
                f"{row.last_error}"
            )
            session.add(row)
            log.error("outbox %s to %s: %s", row.id, row.to_address, row.last_error)
            if row.kind != "gm":
                record_undeliverable(
                    Desk(session, settings, clock), row.to_address, row.last_error, row.game_id
                )
        return len(rows)


def _record(row: ClaimedEmail, result: SendResult, now: datetime, gate: SendGate) -> bool:
    """Update `row` from the result; True when the server was not reached (no reply code)."""
    if result.permanent:
        failure = result.permanent[0]
        row.status = "failed"
        row.attempts += 1  # a try that did not get through, as a deferral counts one
        row.last_error = f"{failure.code} {failure.reason}"
        log.error("outbox %s to %s refused for good: %s", row.id, row.to_address, row.last_error)
        return False
    if result.throttled:
        failure = result.throttled[0]
        row.attempts += 1
        row.last_error = f"{failure.code} {failure.reason}"
        row.next_attempt_at = gate.close(now, row.last_error, needs_person=False)
        log.warning(
            "outbox %s to %s deferred: the provider's sending limit (%s); sending paused until %s",
            row.id,
            row.to_address,
            row.last_error,
            f"{row.next_attempt_at:%H:%M:%S}",
        )
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


def _count(report: SendReport, row: ClaimedEmail) -> None:
    if row.status == "sent":
        report.sent += 1
    elif row.status == "failed":
        report.failed += 1
    else:
        report.deferred += 1
