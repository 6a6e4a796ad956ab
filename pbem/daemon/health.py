"""What the daemon knows of its mail servers, kept where `pbem status` reads it (the
`daemon_status` row of its name), and a problem only a person can cure told to the game master
once: by mail for the IMAP side (the SMTP side still works), in the log always.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from sqlalchemy import Engine

from pbem.daemon.outbox import SendGate, SendReport
from pbem.mail.transport import PollReport
from pbem.moderator.desk import Desk
from pbem.moderator.letters import notice_letter
from pbem.settings import Settings
from pbem.store import session_scope
from pbem.store.operations import daemon_status
from pbem.store.tables import DaemonStatusRow

log = logging.getLogger("pbem.daemon")

Server = Literal["imap", "smtp"]


@dataclass(frozen=True)
class LinkReport:
    """One server in one cycle: reached, failed, or not needed (neither)."""

    reached: bool = False
    problem: str | None = None
    needs_person: bool = False
    retry_at: datetime | None = None
    failures: int | None = None
    """Failed attempts in a row, when the transport counts them; else one per report."""


def intake_link(poll: PollReport, now: datetime) -> LinkReport:
    if poll.error is None:
        return LinkReport(reached=True)
    retry_at = now + timedelta(seconds=poll.retry_in) if poll.retry_in is not None else None
    return LinkReport(
        problem=poll.error,
        needs_person=poll.needs_person,
        retry_at=retry_at,
        failures=poll.failures or None,
    )


def sender_link(report: SendReport, gate: SendGate) -> LinkReport:
    """A sending limit counts as a problem too, so `pbem status` shows the pause."""
    if report.paused:
        return LinkReport()
    if report.problem is not None or (gate.reason is not None and report.held_back):
        return LinkReport(
            problem=report.problem or gate.reason,
            needs_person=report.needs_person or gate.needs_person,
            retry_at=gate.open_at,
        )
    return LinkReport(reached=bool(report.sent or report.failed or report.deferred))


class Health:
    """The daemon `name`'s status row: its heartbeat and each server's last contact or problem."""

    def __init__(
        self,
        engine: Engine,
        settings: Settings,
        name: str,
        clock: Callable[[], datetime],
    ) -> None:
        self.engine = engine
        self.settings = settings
        self.name = name
        self.clock = clock

    def started(self, wait_seconds: float) -> None:
        with session_scope(self.engine) as session:
            row = daemon_status(session, self.name)
            row.started_at = row.beat_at = self.clock()
            row.wait_seconds = wait_seconds
            row.stopped_at = None

    def stopped(self) -> None:
        with session_scope(self.engine) as session:
            daemon_status(session, self.name).stopped_at = self.clock()

    def record(self, server: Server, link: LinkReport) -> None:
        """Note how `server` did this cycle; tell the GM of a new problem only a person cures."""
        now = self.clock()
        with session_scope(self.engine) as session:
            row = daemon_status(session, self.name)
            row.beat_at = now
            if link.reached:
                _set(row, server, ok_at=now, problem=None, needs_person=False, failures=0)
                _set(row, server, retry_at=None, told_at=None)
            elif link.problem is not None:
                failures = link.failures or getattr(row, f"{server}_failures") + 1
                _set(row, server, problem=link.problem, needs_person=link.needs_person)
                _set(row, server, failures=failures, retry_at=link.retry_at)
                if link.needs_person and getattr(row, f"{server}_told_at") is None:
                    _set(row, server, told_at=now)
                    self._tell_gm(Desk(session, self.settings, self.clock), server, link)

    def _tell_gm(self, desk: Desk, server: Server, link: LinkReport) -> None:
        log.error(
            "%s needs you: %s; pbem tries again after a minute, doubling to an hour "
            "(pbem status shows when)",
            server.upper(),
            link.problem,
        )
        gm = self.settings.gm_address
        if server == "smtp" or not gm:
            return  # with SMTP refused no mail can reach the GM: the log and status say it
        letter = notice_letter(
            to=gm,
            game=None,
            seat=None,
            settings=self.settings,
            words="pbem cannot read its mail",
            lines=[
                f"The IMAP server refused pbem: {link.problem}.",
                "No orders are read until this is fixed. pbem tries again after a minute, "
                "then 2, 4, ... at most every hour; `pbem status` shows the next attempt.",
                "Fix the login (or certificate, or folder) in the settings and restart pbem.",
            ],
            kind="gm",
        )
        desk.postman.post(letter, None)


def _set(row: DaemonStatusRow, server: Server, **values: object) -> None:
    """Set the columns of one server (`imap_...` or `smtp_...`), which have the same names."""
    for column, value in values.items():
        setattr(row, f"{server}_{column}", value)
