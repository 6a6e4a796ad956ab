"""Sending that respects the provider: its limit answers defer mail, a budget per minute and per
day, a refused login stops sending, old deferred mail is given up; `pbem outbox` and `pbem
status` show it all. Against a real aiosmtpd (and Dovecot for the intake)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import datetime, timedelta

import pytest
from sqlmodel import Session, col, select
from typer.testing import CliRunner

from pbem.cli import app
from pbem.daemon import Daemon
from pbem.mail.limits import SendLimits
from pbem.settings import Settings
from pbem.store import HistoryRow, OutboxRow, utc_now
from tests.daemon.test_daemon_mail import PLAYERS, start_bigtime
from tests.daemon.test_demo_and_cli import cli_env
from tests.support.smtpd import SmtpServer, running_smtpd

runner = CliRunner()
GM = "gm@example.org"
DAILY_LIMIT = "550 5.4.5 Daily user sending limit exceeded"


class Clock:
    """The time now, moved forward by hand: mail queued now is due at once."""

    def __init__(self) -> None:
        self.ahead = timedelta()

    def __call__(self) -> datetime:
        return utc_now() + self.ahead

    def advance(self, **delta: float) -> None:
        self.ahead += timedelta(**delta)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def daemon_at(clock: Clock) -> Iterator[Callable[[Settings], Daemon]]:
    made: list[Daemon] = []

    def make(settings: Settings) -> Daemon:
        daemon = Daemon(settings, gm_address=GM, clock=clock, retry_delay=0.0)
        made.append(daemon)
        return daemon

    yield make
    for daemon in made:
        daemon.close()


def rows_to(daemon: Daemon, address: str) -> list[OutboxRow]:
    with Session(daemon.engine) as session:
        return list(session.exec(select(OutboxRow).where(col(OutboxRow.to_address) == address)))


def undeliverable_history(daemon: Daemon) -> list[str]:
    with Session(daemon.engine) as session:
        summaries = session.exec(select(HistoryRow.summary)).all()
    return [summary for summary in summaries if "could not be delivered" in summary]


def cli_json(settings: Settings, *args: str) -> tuple[int, list[dict[str, object]]]:
    result = runner.invoke(app, [*args, "--json"], env=cli_env(settings))
    return result.exit_code, [json.loads(line) for line in result.stdout.splitlines()]


def game_over_the_limit(daemon: Daemon, smtp_server: SmtpServer) -> Daemon:
    """A game started, and the provider refusing the first player's mail for its daily limit."""
    smtp_server.handler.reply_to(PLAYERS[0], DAILY_LIMIT)
    start_bigtime(daemon)
    return daemon


def test_a_daily_sending_limit_answer_leaves_the_mail_deferred_not_failed(
    server_settings: Settings,
    daemon_at: Callable[[Settings], Daemon],
    smtp_server: SmtpServer,
    clock: Clock,
) -> None:
    daemon = game_over_the_limit(daemon_at(server_settings), smtp_server)

    report = daemon.cycle()
    [row] = rows_to(daemon, PLAYERS[0])

    assert (row.status, row.attempts) == ("pending", 1) and "5.4.5" in (row.last_error or "")
    assert report.outbox.failed == 0 and undeliverable_history(daemon) == []
    assert report.outbox.held_back is not None and "sending limit" in report.outbox.held_back
    assert not any(PLAYERS[0] in mail.recipients for mail in smtp_server.received())
    # Sending waits a minute: the next cycle tries nothing, not even the other players' mail.
    sent_before = len(smtp_server.received())
    assert daemon.cycle().outbox.paused and len(smtp_server.received()) == sent_before

    code, [listed] = cli_json(server_settings, "outbox", "--status", "deferred")
    assert code == 0 and listed["id"] == row.id and listed["status"] == "deferred"
    code, [status] = cli_json(server_settings, "status")
    [smtp] = [daemon_row["smtp"] for daemon_row in status["daemons"]]  # type: ignore[attr-defined]
    assert "5.4.5" in smtp["problem"] and smtp["needs_person"] is False and smtp["retry_at"]
    assert status["outbox"]["deferred"] == 1  # type: ignore[index]

    smtp_server.handler.accept(PLAYERS[0])
    clock.advance(minutes=2)
    assert daemon.cycle().outbox.sent >= 1
    assert rows_to(daemon, PLAYERS[0])[0].status == "sent"


def test_deferred_mail_older_than_the_give_up_age_is_failed_and_reported(
    server_settings: Settings,
    daemon_at: Callable[[Settings], Daemon],
    smtp_server: SmtpServer,
    clock: Clock,
) -> None:
    daemon = game_over_the_limit(
        daemon_at(replace(server_settings, give_up_hours=48.0)), smtp_server
    )
    daemon.cycle()

    clock.advance(hours=49)
    report = daemon.cycle()

    [row] = rows_to(daemon, PLAYERS[0])
    assert row.status == "failed" and (row.last_error or "").startswith("given up after 48 h")
    assert report.outbox.given_up == 1
    assert len(undeliverable_history(daemon)) == 1
    assert [mail for mail in smtp_server.received() if GM in mail.recipients]


def test_the_send_budget_holds_mail_back_until_the_minute_has_passed(
    server_settings: Settings,
    daemon_at: Callable[[Settings], Daemon],
    smtp_server: SmtpServer,
    clock: Clock,
) -> None:
    daemon = daemon_at(replace(server_settings, send_limits=SendLimits(per_minute=2, per_day=0)))
    start_bigtime(daemon)  # three welcome emails

    first = daemon.cycle().outbox
    clock.advance(seconds=30)
    still = daemon.cycle().outbox
    clock.advance(seconds=31)
    later = daemon.cycle().outbox

    assert (first.sent, still.sent, later.sent) == (2, 0, 1)
    assert first.held_back is not None and "2/min" in first.held_back
    assert len(smtp_server.wait_for(3)) == 3


def test_the_daily_budget_counts_the_last_24_hours(
    server_settings: Settings,
    daemon_at: Callable[[Settings], Daemon],
    smtp_server: SmtpServer,
    clock: Clock,
) -> None:
    daemon = daemon_at(replace(server_settings, send_limits=SendLimits(per_minute=0, per_day=1)))
    start_bigtime(daemon)

    sent = [daemon.cycle().outbox.sent]
    clock.advance(hours=23)
    sent.append(daemon.cycle().outbox.sent)
    clock.advance(hours=1, seconds=1)
    sent.append(daemon.cycle().outbox.sent)

    assert sent == [1, 0, 1]


def test_a_refused_smtp_login_stops_sending_charges_no_mail_and_shows_in_status(
    server_settings: Settings, daemon_at: Callable[[Settings], Daemon], clock: Clock
) -> None:
    with running_smtpd(credentials={"pbem": "right"}) as server:
        settings = replace(
            server_settings, smtp_url=f"smtp://pbem:wrong@{server.host}:{server.port}?insecure=1"
        )
        daemon = daemon_at(settings)
        start_bigtime(daemon)

        first = daemon.cycle()
        second = daemon.cycle()  # within the minute: not even a login is tried

        assert first.outbox.problem is not None and "535" in first.outbox.problem
        assert first.outbox.needs_person and second.outbox.paused
        assert first.transport_failures and server.received() == []
        assert all(row.attempts == 0 and row.status == "pending" for row in rows_to_all(daemon))
        code, [status] = cli_json(settings, "status")
        [smtp] = [row["smtp"] for row in status["daemons"]]  # type: ignore[attr-defined]
        assert code == 1 and smtp["needs_person"] is True and smtp["told_at"]
        assert any("SMTP needs you" in problem for problem in status["problems"])  # type: ignore[attr-defined]


def rows_to_all(daemon: Daemon) -> list[OutboxRow]:
    with Session(daemon.engine) as session:
        return list(session.exec(select(OutboxRow)))


def test_outbox_retry_sends_a_failed_email_again(
    server_settings: Settings,
    daemon_at: Callable[[Settings], Daemon],
    smtp_server: SmtpServer,
) -> None:
    smtp_server.handler.reply_to(PLAYERS[1], "550 5.1.1 No such user")
    daemon = daemon_at(server_settings)
    start_bigtime(daemon)
    daemon.cycle()
    [failed] = rows_to(daemon, PLAYERS[1])
    assert failed.status == "failed"

    env = cli_env(server_settings)
    listing = runner.invoke(app, ["outbox"], env=env)
    smtp_server.handler.accept(PLAYERS[1])
    retried = runner.invoke(app, ["outbox", "retry", str(failed.id)], env=env)
    daemon.cycle()

    assert listing.exit_code == 0 and "failed" in listing.stdout and "5.1.1" in listing.stdout
    assert retried.exit_code == 0
    assert rows_to(daemon, PLAYERS[1])[0].status == "sent"
    assert any(PLAYERS[1] in mail.recipients for mail in smtp_server.received())


@pytest.mark.parametrize(
    ("args", "code", "words"),
    [
        (["outbox", "retry", "999"], 1, "no email 999"),
        (["outbox", "--status", "lost"], 2, "--status lost"),
    ],
)
def test_outbox_refuses_what_it_cannot_do_in_one_line(
    server_settings: Settings, args: list[str], code: int, words: str
) -> None:
    result = runner.invoke(app, args, env=cli_env(server_settings))
    assert result.exit_code == code and words in result.stderr
    assert "Traceback" not in result.output


def test_a_sent_email_is_not_retried(
    server_settings: Settings, daemon_at: Callable[[Settings], Daemon], smtp_server: SmtpServer
) -> None:
    daemon = daemon_at(server_settings)
    start_bigtime(daemon)
    daemon.cycle()
    [sent] = rows_to(daemon, PLAYERS[2])
    result = runner.invoke(app, ["outbox", "retry", str(sent.id)], env=cli_env(server_settings))
    assert result.exit_code == 1 and "was sent" in result.stderr
