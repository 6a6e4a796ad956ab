"""The outbox sent by a process of its own (pbem.daemon.sending), as `pbem run` sends over SMTP:
what the daemon handles leaves without the daemon's cycle sending it, the SMTP side of the health
is on record, and stopping the daemon stops the process."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from email.parser import BytesHeaderParser
from pathlib import Path

from sqlmodel import select

from pbem.daemon import Daemon
from pbem.daemon.health import Health, LinkReport
from pbem.daemon.sending import SenderHealth
from pbem.settings import Settings
from pbem.store import OutboxRow, open_database, session_scope
from pbem.store.operations import daemon_status
from tests.daemon.test_daemon_mail import PLAYERS, reply_from, start_bigtime
from tests.daemon.test_daemon_running import to, wait_for
from tests.support.dovecot import DovecotServer
from tests.support.procfs import proc_stat
from tests.support.smtpd import SmtpServer

SECONDS = 30


def statuses(daemon: Daemon) -> set[str]:
    with session_scope(daemon.engine) as session:
        return set(session.exec(select(OutboxRow.status)).all())


def gone(pid: int) -> bool:
    """Ended: no such process, or only its exit status left (a zombie, not yet reaped)."""
    stat = proc_stat(pid)
    return stat is None or stat.ended


def test_the_sending_process_sends_what_the_daemon_handles_and_stops_with_it(
    server_settings: Settings,
    make_daemon: Callable[[Settings], Daemon],
    dovecot: DovecotServer,
    smtp_server: SmtpServer,
) -> None:
    daemon = make_daemon(server_settings)
    start_bigtime(daemon)
    daemon.start_sending_process(wait_seconds=300)
    assert daemon.sending is not None and daemon.sending.pid is not None
    pid = daemon.sending.pid

    daemon.cycle()  # rings the process: the welcome letters leave from there
    welcome = smtp_server.wait_for(len(PLAYERS), SECONDS)
    assert {r for mail in welcome for r in mail.recipients} == set(PLAYERS)
    [to_ann] = to(PLAYERS[0], welcome)
    dovecot.append(reply_from(PLAYERS[0], to_ann.raw, "BID 0"))
    assert daemon.cycle().intake.stored == 1
    assert wait_for(lambda: len(to(PLAYERS[0], smtp_server.received())) == 2, SECONDS)
    assert wait_for(lambda: statuses(daemon) == {"sent"}, SECONDS)
    with session_scope(daemon.engine) as session:
        health = daemon_status(session, "pbem")
        assert health.smtp_ok_at is not None and health.smtp_problem is None

    daemon.close()
    assert daemon.sending is None
    assert wait_for(lambda: gone(pid), SECONDS)
    # Nothing was sent twice.
    parser = BytesHeaderParser()
    message_ids = [parser.parsebytes(mail.raw)["Message-ID"] for mail in smtp_server.received()]
    assert len(message_ids) == len(set(message_ids))


def test_the_sending_process_records_a_problem_at_once_and_a_success_now_and_then(
    tmp_path: Path,
) -> None:
    engine = open_database(f"sqlite:///{tmp_path}/pbem.sqlite3")
    times = iter(
        datetime(2026, 12, 5, 22, minute, tzinfo=UTC) for minute in (0, 1, 2, 3, 4, 5, 6, 7)
    )
    health = SenderHealth(Health(engine, Settings(), "pbem", lambda: next(times)))

    def smtp() -> tuple[datetime | None, str | None]:
        with session_scope(engine) as session:
            row = daemon_status(session, "pbem")
            return row.smtp_ok_at, row.smtp_problem

    try:
        health.record(LinkReport(reached=True))
        first = smtp()
        assert first[0] is not None and first[1] is None
        health.record(LinkReport(reached=True))  # within HEALTH_SECONDS: on record already
        health.record(LinkReport())  # nothing tried: nothing to say
        assert smtp() == first
        health.record(LinkReport(problem="421 try later"))
        assert smtp() == (first[0], "421 try later")
        health.record(LinkReport(reached=True))  # the problem is over: said at once
        ok_at, problem = smtp()
        assert problem is None and ok_at is not None and ok_at > first[0]
    finally:
        engine.dispose()
