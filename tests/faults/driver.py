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
        self._written: list[bytes] = []
        """Orders the players wrote that are not in the INBOX yet."""
        self._to_deliver: int | None = None
        """How many more orders reach the INBOX while this daemon lives; None: no limit."""
        self.kills_while_busy = 0

    def answer_new_mail(self) -> None:
        received = self.smtp_server.received()
        for mail in received[self._read :]:
            order = self.players.answer(mail.raw)
            if order is not None:
                self._written.append(order)
        self._read = len(received)
        count = len(self._written)
        if self._to_deliver is not None:
            count = min(count, self._to_deliver)
            self._to_deliver -= count
        for order in self._written[:count]:
            self.dovecot.append(order)
        del self._written[:count]

    def play_with_kills(
        self,
        kills: int,
        delays: random.Random,
        low: float,
        high: float,
        orders_per_life: int,
        busy: Callable[[], bool],
    ) -> None:
        """Start the daemon, SIGKILL it after a random delay, start it again, `kills` times.

        Each life of the daemon is sent at most `orders_per_life` orders, so that however fast it
        is on the machine at hand, the games are still being played at every kill. `busy()` says
        whether the daemon has mail to read or send, counted at each kill.
        """
        self.daemon.start()
        while self.daemon.kills < kills:
            self._to_deliver = delays.randint(1, orders_per_life)
            self._play_for(delays.uniform(low, high))
            self.kills_while_busy += busy()
            self.daemon.kill()
            self.daemon.start()
        self._to_deliver = None

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
