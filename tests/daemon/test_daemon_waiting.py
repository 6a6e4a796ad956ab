"""How the daemon waits: one IMAP IDLE for a whole quiet wait (a stop request is checked without
ending it), renewed every IDLE_RENEWAL, and a prompt stop; and how it backs off from a login
the server refuses, without exiting and with one notice to the game master. Real Dovecot, with
a relay in front of it counting the commands the daemon sends."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from pbem.daemon import Daemon
from pbem.mail import imap_session
from pbem.mail.timing import Backoff
from pbem.settings import Settings
from tests.daemon.test_daemon_running import wait_for
from tests.daemon.test_demo_and_cli import cli_env
from tests.support.dovecot import DovecotServer, running_dovecot, skip_without_dovecot
from tests.support.relay import CommandRelay, command_relay
from tests.support.smtpd import SmtpServer

pytestmark = pytest.mark.imap

runner = CliRunner()
GM = "gm@example.org"
QUIET_SECONDS = 8.0
QUICK_LOGIN_BACKOFF = Backoff(first=0.25, cap=1.0)


@contextmanager
def serving(daemon: Daemon) -> Iterator[threading.Thread]:
    thread = threading.Thread(target=daemon.serve, kwargs={"wait_seconds": 300})
    thread.start()
    try:
        yield thread
    finally:
        daemon.stop()
        thread.join(15)


@contextmanager
def relayed(settings: Settings, dovecot: DovecotServer) -> Iterator[tuple[Settings, CommandRelay]]:
    """The settings with IMAP through a relay that counts what the daemon sends."""
    with command_relay(dovecot.host, dovecot.port) as relay:
        url = (settings.imap_url or "").replace(f":{dovecot.port}/", f":{relay.port}/")
        yield replace(settings, imap_url=url), relay


def test_a_quiet_wait_is_one_idle_however_often_a_stop_is_checked_for(
    server_settings: Settings, dovecot: DovecotServer, smtp_server: SmtpServer
) -> None:
    with relayed(server_settings, dovecot) as (settings, relay):
        daemon = Daemon(settings)
        with serving(daemon):
            assert wait_for(lambda: relay.count("IDLE") == 1, 10)
            noops = relay.count("NOOP")
            time.sleep(QUIET_SECONDS)
            quiet = (relay.count("IDLE"), relay.count("NOOP") - noops, relay.count("DONE"))
            stop_asked = time.monotonic()
        stopped_in = time.monotonic() - stop_asked

    assert quiet == (1, 0, 0)
    assert stopped_in < 3.0


def test_idle_is_renewed_after_idle_renewal_without_a_noop(
    server_settings: Settings,
    dovecot: DovecotServer,
    smtp_server: SmtpServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(imap_session, "IDLE_RENEWAL", 1.0)
    with relayed(server_settings, dovecot) as (settings, relay):
        daemon = Daemon(settings)
        with serving(daemon):
            assert wait_for(lambda: relay.count("IDLE") == 1, 10)
            noops = relay.count("NOOP")
            time.sleep(3.5)
            idles, new_noops = relay.count("IDLE"), relay.count("NOOP") - noops

    assert 3 <= idles <= 5 and new_noops == 0


@pytest.fixture
def prompt_dovecot() -> Iterator[DovecotServer]:
    """Dovecot answering failed logins at once: the waits seen are the daemon's own."""
    skip_without_dovecot()
    with running_dovecot(auth_penalty=False) as server:
        yield server


def test_a_wrong_imap_password_backs_off_keeps_running_and_tells_the_gm_once(
    server_settings: Settings, prompt_dovecot: DovecotServer, smtp_server: SmtpServer
) -> None:
    dovecot = prompt_dovecot
    wrong = f"imap://moderator:wrong@{dovecot.host}:{dovecot.port}/INBOX?insecure=1"
    with relayed(replace(server_settings, imap_url=wrong, gm_address=GM), dovecot) as (
        settings,
        relay,
    ):
        daemon = Daemon(settings, login_backoff=QUICK_LOGIN_BACKOFF)
        with serving(daemon) as thread:
            started = time.monotonic()
            # Attempts at 0, 0.25, 0.75 and 1.75 s at the soonest: the waits double up to the cap.
            # Timed until the fourth, however busy the machine (a fixed window counts fewer).
            while relay.count("LOGIN") < 4 and time.monotonic() - started < 60:
                time.sleep(0.02)
            fourth_after = time.monotonic() - started
            alive = thread.is_alive()
            status = runner.invoke(app, ["status", "--json"], env=cli_env(settings))

    assert alive and not thread.is_alive()
    assert 1.7 <= fourth_after < 60  # it waited between attempts, and kept trying
    notices = [mail for mail in smtp_server.wait_for(1) if GM in mail.recipients]
    assert len(notices) == 1 and b"cannot read its mail" in notices[0].raw
    assert status.exit_code == 1
    [imap] = [row["imap"] for row in json.loads(status.stdout)["daemons"]]
    assert imap["needs_person"] is True and imap["told_at"] and imap["retry_at"]
    assert imap["failures"] >= 3 and "refused the login" in imap["problem"]


def test_a_login_that_works_again_clears_the_problem(
    server_settings: Settings, dovecot: DovecotServer, smtp_server: SmtpServer
) -> None:
    wrong = f"imap://moderator:wrong@{dovecot.host}:{dovecot.port}/INBOX?insecure=1"
    Daemon(replace(server_settings, imap_url=wrong, gm_address=GM)).cycle()
    daemon = Daemon(replace(server_settings, gm_address=GM))
    daemon.cycle()
    daemon.close()

    status = runner.invoke(app, ["status", "--json"], env=cli_env(server_settings))
    [imap] = [row["imap"] for row in json.loads(status.stdout)["daemons"]]
    assert imap["problem"] is None and imap["ok_at"] and not imap["needs_person"]
    assert status.exit_code == 0
