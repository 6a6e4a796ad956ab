"""The daemon as it runs for real: `pbem run --once` by the command line, and `run_forever` with
IMAP IDLE, an IMAP server restart and an SMTP server away for a while."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta

from typer.testing import CliRunner

from pbem.cli import app
from pbem.daemon import Daemon
from pbem.settings import Settings
from pbem.store import utc_now
from tests.daemon.test_daemon_mail import PLAYERS, reply_from, start_bigtime
from tests.daemon.test_demo_and_cli import cli_env
from tests.support.dovecot import DovecotServer
from tests.support.smtpd import ReceivedMail, SmtpServer

runner = CliRunner()


def wait_for(condition: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def to(address: str, mails: list[ReceivedMail]) -> list[ReceivedMail]:
    return [mail for mail in mails if address in mail.recipients]


@contextmanager
def running(daemon: Daemon) -> Iterator[None]:
    """The daemon serving in a thread with a long wait, so only IDLE (or an alarm) wakes it."""
    thread = threading.Thread(target=daemon.serve, kwargs={"wait_seconds": 300})
    thread.start()
    try:
        yield
    finally:
        daemon.stop()
        thread.join(15)
        assert not thread.is_alive()


def test_run_once_by_the_command_line_mails_answers_and_then_rests(
    server_settings: Settings, dovecot: DovecotServer, smtp_server: SmtpServer
) -> None:
    env = cli_env(server_settings)
    players = [arg for player in PLAYERS for arg in ("--player", player)]
    assert runner.invoke(app, ["start", "--game", "bigtime", *players], env=env).exit_code == 0
    assert runner.invoke(app, ["run", "--once"], env=env).exit_code == 0
    welcome = smtp_server.wait_for(3)
    assert {r for mail in welcome for r in mail.recipients} == set(PLAYERS)

    [to_ann] = to(PLAYERS[0], welcome)
    dovecot.append(reply_from(PLAYERS[0], to_ann.raw, "BID 0"))
    assert runner.invoke(app, ["run", "--once"], env=env).exit_code == 0
    assert len(to(PLAYERS[0], smtp_server.wait_for(4))) == 2  # her welcome, then the reply
    assert [seen for _, seen in dovecot.messages("INBOX")] == []
    sent = len(smtp_server.received())
    result = runner.invoke(app, ["run", "--once"], env=env)
    assert result.exit_code == 0 and "sent 0" in result.output
    assert len(smtp_server.received()) == sent


def test_idle_brings_the_reply_without_waiting_for_a_poll(
    server_settings: Settings,
    make_daemon: Callable[[Settings], Daemon],
    dovecot: DovecotServer,
    smtp_server: SmtpServer,
) -> None:
    daemon = make_daemon(server_settings)
    start_bigtime(daemon)
    with running(daemon):
        [to_ann] = to(PLAYERS[0], smtp_server.wait_for(3))
        dovecot.append(reply_from(PLAYERS[0], to_ann.raw, "BID 0"))
        appended = time.monotonic()
        # Well under the 300 s poll the daemon would otherwise wait, however busy the machine.
        assert wait_for(lambda: len(to(PLAYERS[0], smtp_server.received())) == 2, 60)
        assert time.monotonic() - appended < 60  # IDLE, not the 300 s wait


def test_imap_restarted_and_smtp_away_for_a_while_lose_nothing(
    server_settings: Settings,
    make_daemon: Callable[[Settings], Daemon],
    dovecot: DovecotServer,
    smtp_server: SmtpServer,
) -> None:
    daemon = make_daemon(server_settings)
    start_bigtime(daemon)
    with running(daemon):
        welcome = smtp_server.wait_for(3)
        smtp_server.stop()
        dovecot.restart()
        for player in PLAYERS:
            [got] = to(player, welcome)
            dovecot.append(reply_from(player, got.raw, "BID 0"))
        assert wait_for(lambda: dovecot.messages("INBOX") == [], 20)  # taken in, all of it
    smtp_server.start()
    later = utc_now() + timedelta(hours=2)  # past the retry backoff, as a later cycle would be
    daemon.clock = lambda: later
    # A reply to each, and the phase 2 status to the two whose bids did not resolve the phase
    # (the third's reply carries it).
    assert daemon.send_outbox().sent == 5
    received = smtp_server.received()
    assert sorted(len(to(player, received)) for player in PLAYERS) == [2, 3, 3]
