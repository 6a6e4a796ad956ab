"""Telling systemd how the daemon is (sd_notify(3)), with the standard library only.

Under `Type=notify` systemd names a unix datagram socket in $NOTIFY_SOCKET (a path, or an
abstract name starting with "@"); the daemon sends `READY=1` once it is up, `STATUS=...` after
each cycle, `STOPPING=1` when it stops, and `WATCHDOG=1` at least every half of $WATCHDOG_USEC,
else systemd kills and restarts it. The watchdog is fed from the daemon's own loop (`alive`),
never from a thread of its own, so a daemon stuck anywhere is restarted.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Mapping

from pbem.mail.timing import Clock

log = logging.getLogger("pbem.daemon")


class SystemdNotifier:
    """Sends notifications to `address`; does nothing when there is none (not under systemd)."""

    def __init__(
        self,
        address: str | None,
        watchdog_seconds: float | None = None,
        clock: Clock = time.monotonic,
    ) -> None:
        self.address = address
        self.watchdog_seconds = watchdog_seconds
        self.clock = clock
        self._fed_at: float | None = None
        self._socket: socket.socket | None = None

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> SystemdNotifier:
        env = os.environ if env is None else env
        address = env.get("NOTIFY_SOCKET") or None
        watchdog: float | None = None
        usec = env.get("WATCHDOG_USEC", "")
        # WATCHDOG_PID names the process meant; a child started with our environment is not it.
        if usec.isdigit() and env.get("WATCHDOG_PID", str(os.getpid())) == str(os.getpid()):
            watchdog = int(usec) / 1_000_000
        return cls(address, watchdog)

    def ready(self) -> None:
        self.notify("READY=1", "STATUS=started")
        self.alive()

    def status(self, text: str) -> None:
        self.notify(f"STATUS={text}")

    def stopping(self) -> None:
        self.notify("STOPPING=1", "STATUS=stopping")

    def alive(self) -> None:
        """The daemon's loop is turning: feed the watchdog if half its time has passed."""
        if not self.watchdog_seconds:
            return
        now = self.clock()
        if self._fed_at is None or now - self._fed_at >= self.watchdog_seconds / 2:
            self._fed_at = now
            self.notify("WATCHDOG=1")

    def notify(self, *fields: str) -> bool:
        """Sends one datagram of `fields`; False when not under systemd or the send failed."""
        if self.address is None:
            return False
        target = "\0" + self.address[1:] if self.address.startswith("@") else self.address
        try:
            if self._socket is None:
                self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            self._socket.sendto("\n".join(fields).encode(), target)
        except OSError as error:
            # Never worth stopping the moderator for: systemd will say what it missed.
            log.warning("cannot notify systemd at %s: %s", self.address, error)
            return False
        return True

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None
