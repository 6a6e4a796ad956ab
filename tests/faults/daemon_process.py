"""`pbem run` as a child process that the test can kill outright and start again."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from pbem.settings import Settings
from tests.support.procfs import all_proc_stats, command_line

STOP_TIMEOUT = 30.0
START_TIMEOUT = 30.0
START_POLL_SECONDS = 0.01
# Logged by `Daemon.run_forever` once its stop signals are handled and it begins its cycles.
STARTED_LINE = b"pbem daemon started"


class DaemonProcess:
    """One `pbem run` at a time, its log appended to `log_path` across restarts."""

    def __init__(self, settings: Settings, log_path: Path, wait_seconds: float) -> None:
        self._env = {
            **os.environ,
            "PBEM_DATABASE_URL": settings.database_url,
            "PBEM_IMAP_URL": settings.imap_url or "",
            "PBEM_SMTP_URL": settings.smtp_url or "",
            "PBEM_ADDRESS": settings.address,
            "PBEM_MAILDIR": settings.maildir,
        }
        self._command = [
            sys.executable,
            "-c",
            "from pbem.cli import app; app()",
            "run",
            "--wait",
            str(wait_seconds),
        ]
        self.log_path = log_path
        self._process: subprocess.Popen[bytes] | None = None
        self.kills = 0

    def start(self) -> None:
        """Start the daemon and return once it is running its cycles."""
        assert self._process is None, "already running"
        with self.log_path.open("ab") as log:
            log_start = log.tell()
            self._process = subprocess.Popen(
                self._command, env=self._env, stdout=log, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + START_TIMEOUT
        while STARTED_LINE not in self.log_path.read_bytes()[log_start:]:
            status = self.exited()
            assert status is None, f"the daemon exited with {status}:\n{self.log_tail()}"
            assert time.monotonic() < deadline, f"the daemon did not start:\n{self.log_tail()}"
            time.sleep(START_POLL_SECONDS)

    def kill(self) -> None:
        """SIGKILL: no handler runs, nothing is flushed or closed."""
        process = self._running()
        process.send_signal(signal.SIGKILL)
        process.wait()
        self._process = None
        self.kills += 1
        with self.log_path.open("a") as log:
            log.write(f"--- SIGKILL {self.kills}\n")

    def stop(self) -> int:
        """SIGTERM, the orderly stop; returns the exit status."""
        process = self._running()
        process.send_signal(signal.SIGTERM)
        status = process.wait(STOP_TIMEOUT)
        self._process = None
        return status

    @property
    def pid(self) -> int:
        return self._running().pid

    def wait_for_end(self, timeout: float) -> int:
        """The exit status once the daemon has ended, by whatever means."""
        status = self._running().wait(timeout)
        self._process = None
        return status

    def exited(self) -> int | None:
        """The exit status if the daemon ended by itself (it should not)."""
        return self._running().poll()

    def close(self) -> None:
        if self._process is not None and self._process.poll() is None:
            self._process.kill()
            self._process.wait()
        self._process = None

    def log_tail(self, lines: int = 40) -> str:
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])

    @property
    def sending_pid(self) -> int | None:
        """Its sending process (pbem.daemon.sending: a child by multiprocessing's spawn), if any."""
        pid = self.pid
        for stat in all_proc_stats():
            if stat.parent == pid and b"spawn_main" in command_line(stat.pid):
                return stat.pid
        return None

    def _running(self) -> subprocess.Popen[bytes]:
        assert self._process is not None, "not running"
        return self._process
