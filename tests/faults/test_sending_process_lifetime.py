"""`pbem run`'s sending process lives as long as the daemon: SIGKILL of the daemon kills it
too (it must not send on alone), and SIGTERM to both, as systemd's stop sends it to every
process of the service, is an orderly stop of both after the cycle under way."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.daemon.test_sending_process import gone
from tests.faults.daemon_process import DaemonProcess
from tests.faults.driver import wait_until
from tests.faults.test_crash_safety import settings_for
from tests.support.dovecot import DovecotServer
from tests.support.smtpd import SmtpServer

SECONDS = 30.0


@pytest.fixture
def daemon(
    tmp_path: Path, db_url: str, dovecot: DovecotServer, smtp_server: SmtpServer
) -> Iterator[DaemonProcess]:
    settings = settings_for(db_url, dovecot, smtp_server, tmp_path)
    # A long wait: the sending process, rung by nobody, sits waiting (a pass would find the
    # daemon gone by its report's pipe, which is not what is tested).
    process = DaemonProcess(settings, tmp_path / "daemon.log", wait_seconds=300.0)
    try:
        yield process
    finally:
        process.close()


def started_sender(daemon: DaemonProcess) -> int:
    daemon.start()
    assert wait_until(lambda: daemon.sending_pid is not None, SECONDS), daemon.log_tail()
    sender = daemon.sending_pid
    assert sender is not None
    started = f"sending process {sender} started"
    assert wait_until(lambda: started in daemon.log_path.read_text(), SECONDS), daemon.log_tail()
    return sender


@pytest.mark.imap
def test_a_killed_daemon_takes_its_sending_process_with_it(daemon: DaemonProcess) -> None:
    sender = started_sender(daemon)
    daemon.kill()
    assert wait_until(lambda: gone(sender), SECONDS)


@pytest.mark.imap
def test_sigterm_to_the_daemon_and_its_sending_process_stops_both_in_order(
    daemon: DaemonProcess,
) -> None:
    sender = started_sender(daemon)
    os.kill(sender, signal.SIGTERM)  # ignored: the daemon stops it
    assert not wait_until(lambda: gone(sender), 1.0)
    assert daemon.stop() == 0, daemon.log_tail()
    assert wait_until(lambda: gone(sender), SECONDS)
    log = daemon.log_path.read_text()
    assert "Traceback" not in log and "pbem daemon stopped" in log


@pytest.mark.imap
def test_a_sending_process_that_dies_stops_the_daemon_with_an_error(
    daemon: DaemonProcess,
) -> None:
    """Mail it handles would wait unsent: the daemon stops within a second or so, exit 1, for its
    supervisor to start it again, saying why in a line rather than a traceback of its own."""
    sender = started_sender(daemon)
    os.kill(sender, signal.SIGKILL)
    assert daemon.wait_for_end(SECONDS) == 1, daemon.log_tail()
    log = daemon.log_path.read_text()
    assert "Error: the sending process ended (exit -9); the daemon stopped" in log
    assert "Traceback" not in log
