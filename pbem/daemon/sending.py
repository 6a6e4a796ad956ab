"""The outbox sent by a process of its own while the daemon reads mail, as Mailman's outgoing
runner does: a reply leaves as soon as its email is handled, and a slow SMTP server never holds
up the reading of orders, nor the reading the sending (two processes, two processor cores).

The running daemon (`pbem run`) starts it when it sends over SMTP; `pbem run --once` and a local
Maildir send in the daemon's own process. The sending process opens its own database engines and
SMTP connection and runs `send_outbox` each time the daemon rings it (after each email handled,
and each cycle) or every `wait_seconds`; it records the SMTP side of `pbem status` itself. On a
SQLite file it marks the emails it sent beside the database until the daemon's handling of mail
leaves the write lock free (pbem.store.sent_marks). It ignores SIGINT and SIGTERM (the
terminal's Ctrl-C and systemd's stop reach every process of the daemon): the daemon stops it
after its last cycle, and it dies with the daemon if that is killed.
"""

from __future__ import annotations

import ctypes
import logging
import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from multiprocessing.connection import Connection

from pbem.daemon.health import Health, LinkReport, sender_link
from pbem.daemon.outbox import SendGate, SendReport, send_outbox
from pbem.mail.config import MailSettings
from pbem.mail.factory import open_sender
from pbem.mail.limits import SendLimits
from pbem.mail.timing import Backoff
from pbem.settings import Settings
from pbem.store import database_engine, sending_engine, utc_now
from pbem.store.sent_marks import SentMarks

log = logging.getLogger("pbem.daemon")

# The time a stopping daemon gives the email in flight: an SMTP answer, then the sent mark.
STOP_TIMEOUT = 60.0
PR_SET_PDEATHSIG = 1  # linux/prctl.h
# How often a sending process that keeps reaching its SMTP server says so (see SenderHealth).
HEALTH_SECONDS = 10.0


class SendingProcessDied(RuntimeError):
    """The sending process ended without being told to: the daemon stops too (its supervisor
    starts it again), since mail it handles would otherwise wait unsent."""


@dataclass(frozen=True)
class SendingJob:
    """What the sending process needs (it is pickled): it opens everything else itself."""

    settings: Settings
    mail: MailSettings
    name: str
    limits: SendLimits | None
    login_backoff: Backoff
    wait_seconds: float
    parent_pid: int
    log_setup: Callable[[], None] | None


class SendingProcess:
    """The daemon's handle on its sending process: ring it, read its reports, stop it.

    The bell is a pipe, one byte a ring, its write end the daemon's alone: closing it tells the
    process to stop, and the daemon's death closes it too. (A multiprocessing Event would hang
    the daemon's next ring if the process died waiting on it.)"""

    def __init__(self, job: SendingJob) -> None:
        context = multiprocessing.get_context("spawn")  # no threads or connections inherited
        read_end, self._bell = os.pipe()
        os.set_blocking(self._bell, False)  # a full pipe has rings enough
        bell = Connection(read_end, writable=False)
        self._reports, reports = context.Pipe(duplex=False)
        self._process = context.Process(
            target=_send_until_stopped,
            args=(job, bell, reports),
            name=f"{job.name} sender",
            daemon=True,
        )
        try:
            self._process.start()
        finally:  # the process's ends: our copies would keep the pipes open after it ends
            bell.close()
            reports.close()
        self.last = SendReport()

    @property
    def pid(self) -> int | None:
        return self._process.pid

    @property
    def alive(self) -> bool:
        return self._process.is_alive()

    def nudge(self) -> None:
        """Have the outbox sent now (the liveness check waits for `ring`, at the cycle's end)."""
        # A full pipe holds rings enough; an ended process is told by `ring`.
        with suppress(BlockingIOError, BrokenPipeError):
            os.write(self._bell, b"!")
        self._read_reports()  # a pass a nudge: unread, they would fill the pipe and stop it

    def ring(self) -> SendReport:
        """Have the outbox sent now; the newest report of a pass, or SendingProcessDied."""
        if not self.alive:
            raise SendingProcessDied(f"the sending process ended (exit {self._process.exitcode})")
        self.nudge()
        return self.last

    def next_report(self, timeout: float) -> SendReport | None:
        """The report of the next pass that ends within `timeout` seconds, else None."""
        if not self._reports.poll(timeout):
            return None
        self.last = self._reports.recv()
        return self.last

    def _read_reports(self) -> None:
        while self._reports.poll():
            self.last = self._reports.recv()

    def stop(self) -> None:
        """After the email in flight, if any; killed if it is not done in STOP_TIMEOUT."""
        os.close(self._bell)
        self._process.join(STOP_TIMEOUT)
        if self._process.is_alive():
            log.error("the sending process did not stop in %g s: killed", STOP_TIMEOUT)
            self._process.kill()
            self._process.join()
        self._reports.close()


def _send_until_stopped(job: SendingJob, bell: Connection, reports: Connection) -> None:
    """The sending process: a pass over the outbox whenever rung, until the bell is closed."""
    _die_with(job.parent_pid)
    for stop_signal in (signal.SIGINT, signal.SIGTERM):
        signal.signal(stop_signal, signal.SIG_IGN)
    if job.log_setup is not None:
        job.log_setup()
    os.set_blocking(bell.fileno(), False)
    engine = database_engine(job.settings.database_url)
    marking = sending_engine(engine)
    marks = SentMarks.beside(engine)
    sender = open_sender(job.mail)
    gate = SendGate(login=job.login_backoff)
    log.info("sending process %d started", os.getpid())
    health = SenderHealth(Health(engine, job.settings, job.name, utc_now))
    try:
        while True:
            report = send_outbox(
                marking, sender, job.settings, utc_now, limits=job.limits, gate=gate, marks=marks
            )
            health.record(sender_link(report, gate))
            reports.send(report)
            if bell.poll(job.wait_seconds) and not _rung(bell):
                return  # the daemon closed the bell: stop
    finally:
        sender.close()
        if marks is not None:
            marks.close()
        marking.dispose()
        engine.dispose()


def _rung(bell: Connection) -> bool:
    """Take every ring waiting; False when the bell is closed (the daemon stops, or died)."""
    while True:
        try:
            if not os.read(bell.fileno(), 4096):
                return False
        except BlockingIOError:
            return True


@dataclass
class SenderHealth:
    """The SMTP side of `pbem status`, from passes that may come a few milliseconds apart: a
    problem at once, a success when it ends one and then every HEALTH_SECONDS, since each record
    is a write that waits for the database, as the handling of mail does."""

    health: Health
    recorded_ok_at: float | None = None

    def record(self, link: LinkReport) -> None:
        now = time.monotonic()
        if link.problem is not None:
            self.recorded_ok_at = None
        elif not link.reached or (
            self.recorded_ok_at is not None and now - self.recorded_ok_at < HEALTH_SECONDS
        ):
            return  # nothing was tried, or its success is on record
        else:
            self.recorded_ok_at = now
        self.health.record("smtp", link)


def _die_with(parent_pid: int) -> None:
    """Be killed when the daemon dies, SIGKILL included: its sending process must not go on
    alone (Linux's parent-death signal; elsewhere the daemon's stop ends it)."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent_pid:  # the daemon died before the signal was asked for
        os._exit(1)
