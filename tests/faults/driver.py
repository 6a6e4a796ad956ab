"""Plays the games through the real servers while a daemon is killed and started again.

The players read what the SMTP server received and APPEND their orders to the moderator's INBOX,
as their mail provider would deliver them; the daemon never knows it is being tested.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from tests.faults.daemon_process import DaemonProcess
from tests.faults.players import Players
from tests.support.dovecot import DovecotServer
from tests.support.smtpd import SmtpServer

STEP_SECONDS = 0.02


class CrashDriver:
    def __init__(
        self,
        daemon: DaemonProcess,
        dovecot: DovecotServer,
        smtp_server: SmtpServer,
        players: Players,
    ) -> None:
        self.daemon = daemon
        self.dovecot = dovecot
        self.smtp_server = smtp_server
        self.players = players
        self._read = 0
        self.kills_with_work_left = 0

    def answer_new_mail(self) -> None:
        received = self.smtp_server.received()
        for mail in received[self._read :]:
            order = self.players.answer(mail.raw)
            if order is not None:
                self.dovecot.append(order)
        self._read = len(received)

    def play_with_kills(
        self,
        kills: int,
        delays: random.Random,
        low: float,
        high: float,
        work_left: Callable[[], bool],
    ) -> None:
        """Start the daemon, SIGKILL it after a random delay, start it again, `kills` times."""
        self.daemon.start()
        while self.daemon.kills < kills:
            self._play_for(delays.uniform(low, high))
            self.kills_with_work_left += work_left()
            self.daemon.kill()
            self.daemon.start()

    def play_until(self, done: Callable[[], bool], timeout: float) -> bool:
        """Let the daemon run undisturbed until `done()`; False if `timeout` passed first."""

        def answered_and_done() -> bool:
            self.answer_new_mail()
            return done()

        return wait_until(answered_and_done, timeout)

    def _play_for(self, seconds: float) -> None:
        until = time.monotonic() + seconds
        while time.monotonic() < until:
            self.answer_new_mail()
            status = self.daemon.exited()
            assert status is None, f"the daemon exited with {status}:\n{self.daemon.log_tail()}"
            time.sleep(STEP_SECONDS)


def wait_until(condition: Callable[[], bool], timeout: float) -> bool:
    """True as soon as `condition()` holds; False if `timeout` seconds pass first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(STEP_SECONDS * 10)
    return False
