"""`pbem status [--json]`: how the moderator is doing, read from the database alone.

Each daemon's last successful IMAP and SMTP contact (or, on the local Maildir, when it last read
its inbox and wrote to its sent folder), the problem since and its backoff, the mail waiting in
the outbox, the games waiting on a deadline. Exit status 1 when something needs
a person: a login or certificate refused, or a running daemon silent for longer than two of its
waits (`HEALTHCHECK`, monitoring); 0 otherwise.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

import typer
from sqlmodel import Session

from pbem.mail.maildir import INBOX, SENT
from pbem.settings import Settings, SettingsError, load_settings
from pbem.store import open_database, utc_now
from pbem.store.operations import (
    OutboxCounts,
    all_daemon_status,
    games_with_deadlines,
    outbox_counts,
)
from pbem.store.tables import DaemonStatusRow

# A daemon ends a cycle at least every `wait_seconds`; a cycle itself may take a while.
SILENCE_GRACE = timedelta(minutes=2)


@dataclass(frozen=True)
class LinkView:
    ok_at: datetime | None
    problem: str | None
    needs_person: bool
    failures: int
    retry_at: datetime | None
    told_at: datetime | None


@dataclass(frozen=True)
class DaemonView:
    name: str
    started_at: datetime
    beat_at: datetime
    stopped_at: datetime | None
    wait_seconds: float
    imap: LinkView
    smtp: LinkView


@dataclass(frozen=True)
class DeadlineView:
    game: str
    policy: str
    deadline_at: datetime
    passed: bool  # acted on at the daemon's next cycle (or held while an away player is awaited)


@dataclass(frozen=True)
class StatusReport:
    daemons: list[DaemonView]
    outbox: OutboxCounts
    deadlines: list[DeadlineView]
    problems: list[str] = field(default_factory=list)

    @property
    def healthy(self) -> bool:
        return not self.problems


def link_view(row: DaemonStatusRow, server: str) -> LinkView:
    return LinkView(**{name: getattr(row, f"{server}_{name}") for name in LinkView.__annotations__})


def daemon_view(row: DaemonStatusRow) -> DaemonView:
    return DaemonView(
        name=row.name,
        started_at=row.started_at,
        beat_at=row.beat_at,
        stopped_at=row.stopped_at,
        wait_seconds=row.wait_seconds,
        imap=link_view(row, "imap"),
        smtp=link_view(row, "smtp"),
    )


def problems_of(daemons: list[DaemonView], now: datetime) -> list[str]:
    if not daemons:
        return ["no daemon has run yet (pbem run)"]
    problems = []
    for daemon in daemons:
        silent_since = now - daemon.beat_at
        if daemon.stopped_at is None and silent_since > 2 * _wait(daemon) + SILENCE_GRACE:
            problems.append(f"{daemon.name}: no cycle since {daemon.beat_at:%Y-%m-%d %H:%M} UTC")
        for server, link in (("IMAP", daemon.imap), ("SMTP", daemon.smtp)):
            if link.needs_person:
                problems.append(f"{daemon.name}: {server} needs you: {link.problem}")
    return problems


def _wait(daemon: DaemonView) -> timedelta:
    return timedelta(seconds=daemon.wait_seconds)


def read_status(session: Session, now: datetime) -> StatusReport:
    daemons = [daemon_view(row) for row in all_daemon_status(session)]
    return StatusReport(
        daemons=daemons,
        outbox=outbox_counts(session),
        deadlines=[
            DeadlineView(*game, passed=game[2] <= now) for game in games_with_deadlines(session)
        ],
        problems=problems_of(daemons, now),
    )


def status(as_json: bool = typer.Option(False, "--json", help="Print one JSON object.")) -> None:
    """Mail servers, outbox and deadlines at a glance; exit 1 when something needs you."""
    try:
        settings = load_settings()
    except SettingsError as exc:
        typer.echo(f"Error: {exc}", err=True)
        raise typer.Exit(2) from exc
    engine = open_database(settings.database_url)
    try:
        with Session(engine) as session:
            report = read_status(session, utc_now())
    finally:
        engine.dispose()
    if as_json:
        typer.echo(json.dumps({"healthy": report.healthy, **asdict(report)}, default=_iso))
    else:
        typer.echo(as_text(report, link_names(settings)))
    if not report.healthy:
        raise typer.Exit(1)


def _iso(value: object) -> str:
    if isinstance(value, datetime):
        return value.isoformat()
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


@dataclass(frozen=True)
class LinkName:
    """How the text report names a daemon's link and its last success."""

    name: str
    success: str


def link_names(settings: Settings) -> tuple[LinkName, LinkName]:
    """The intake's and the sender's names. A daemon on the local Maildir contacts no server
    (the settings here are the daemon's when both read the same environment or file)."""
    if settings.uses_maildir:
        return (
            LinkName(f"Maildir {Path(settings.maildir) / INBOX}", "last read"),
            LinkName(f"Maildir {Path(settings.maildir) / SENT}", "last written"),
        )
    return LinkName("IMAP", "last contact"), LinkName("SMTP", "last contact")


def as_text(report: StatusReport, names: tuple[LinkName, LinkName]) -> str:
    lines = []
    for daemon in report.daemons:
        state = f"stopped {_when(daemon.stopped_at)}" if daemon.stopped_at else "running"
        lines.append(f"daemon {daemon.name}: {state}, last cycle {_when(daemon.beat_at)}")
        for name, link in zip(names, (daemon.imap, daemon.smtp), strict=True):
            lines.append(f"  {name.name}: {name.success} {_when(link.ok_at)}")
            if link.problem:
                retry = f", next try {_when(link.retry_at)}" if link.retry_at else ""
                lines.append(f"    problem ({link.failures} in a row{retry}): {link.problem}")
    box = report.outbox
    lines.append(f"outbox: {box.pending} pending, {box.deferred} deferred, {box.failed} failed")
    lines.append(f"games waiting on a deadline: {len(report.deadlines)}")
    lines.extend(
        f"  {d.game}: {_when(d.deadline_at)} (policy {d.policy}{', passed' if d.passed else ''})"
        for d in report.deadlines
    )
    lines.extend(f"NEEDS YOU: {problem}" for problem in report.problems)
    return "\n".join(lines)


def _when(moment: datetime | None) -> str:
    return f"{moment:%Y-%m-%d %H:%M:%S} UTC" if moment else "never"
