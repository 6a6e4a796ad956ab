"""The mail daemon: take in mail, handle it, send the outbox, again and again until stopped.

One cycle does intake, deadlines and reminders, the computer players' mail and the outbox in
turn; then the daemon waits for new mail (IMAP IDLE where offered, polling otherwise), for an
alarm (APScheduler jobs in the database, `alarms.py`), for a stop request or for at most
`wait_seconds`. What it saw of its mail servers goes to its status row (`health.py`) and to
systemd (`notify.py`).
"""

from __future__ import annotations

import logging
import os
import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from email.parser import BytesHeaderParser
from types import FrameType

from pbem.daemon.alarms import AlarmClock
from pbem.daemon.deadlines import run_deadlines, run_reminders
from pbem.daemon.health import Health, intake_link, sender_link
from pbem.daemon.heap import settle_startup_objects
from pbem.daemon.notify import SystemdNotifier
from pbem.daemon.outbox import SendGate, SendReport, send_outbox
from pbem.daemon.sending import SendingJob, SendingProcess
from pbem.daemon.signups import run_signup_starts
from pbem.mail.config import IMAP_URL_VARIABLE, MAILDIR_VARIABLE, SMTP_URL_VARIABLE, MailSettings
from pbem.mail.factory import open_intake, open_sender
from pbem.mail.handover import DEFAULT_RETRY_DELAY
from pbem.mail.imap import ImapOptions
from pbem.mail.limits import SendLimits, limits_for_host
from pbem.mail.timing import LOGIN_BACKOFF, Backoff
from pbem.mail.transport import PollReport
from pbem.moderator.bots import answer_bot_mail
from pbem.moderator.desk import Desk
from pbem.moderator.inbound import handle_inbound
from pbem.moderator.letters import notice_letter
from pbem.moderator.render import compile_templates
from pbem.settings import Settings
from pbem.store import (
    get_mail_state,
    inbound_by_key,
    message_key,
    open_database,
    record_inbound,
    sending_engine,
    session_scope,
    set_mail_state,
    utc_now,
)
from pbem.store.sent_marks import move_marks_left

log = logging.getLogger("pbem.daemon")

DEFAULT_WAIT_SECONDS = 300.0
# The running daemon's share of a cycle for computer players: a strong one thinks up to 2.5 s a
# decision and a game of them a minute or more, while other games' mail waits for the cycle.
# What is left is answered in the next cycle, which then starts at once.
BOT_SECONDS_PER_CYCLE = 5.0


@dataclass(frozen=True)
class CycleReport:
    intake: PollReport
    outbox: SendReport
    deadlines: int
    bots: int  # emails computer players answered
    bots_waiting: bool = False  # their share of the cycle ran out with mail still for them

    @property
    def transport_failures(self) -> list[str]:
        """What failed of the mail servers this cycle (IMAP, TLS, SMTP), for `run --once`."""
        return [
            f"{side}: {problem}"
            for side, problem in (("intake", self.intake.error), ("sending", self.outbox.problem))
            if problem is not None
        ]


class DatabaseState:
    """The intake's bookkeeping (IMAP UIDVALIDITY) in the database, one transaction per write."""

    def __init__(self, daemon: Daemon) -> None:
        self._daemon = daemon

    def get(self, key: str) -> str | None:
        with session_scope(self._daemon.engine) as session:
            return get_mail_state(session, key)

    def set(self, key: str, value: str) -> None:
        with session_scope(self._daemon.engine) as session:
            set_mail_state(session, key, value)


class Daemon:
    """One moderator process over `settings`: its database, its intake and its sender."""

    def __init__(
        self,
        settings: Settings,
        *,
        gm_address: str | None = None,
        clock: Callable[[], datetime] = utc_now,
        retry_delay: float = DEFAULT_RETRY_DELAY,
        name: str = "pbem",
        login_backoff: Backoff = LOGIN_BACKOFF,
        notifier: SystemdNotifier | None = None,
        log_setup: Callable[[], None] | None = None,
    ) -> None:
        """`login_backoff`: the wait after a refused login (IMAP or SMTP), doubling each time.
        `log_setup`: how the sending process sets up its logging as this process's (picklable)."""
        # `--gm` on the command line wins over PBEM_GM_ADDRESS.
        self.settings = replace(settings, gm_address=gm_address or settings.gm_address)
        self.gm_address = self.settings.gm_address
        self.clock = clock
        self.engine = open_database(settings.database_url)
        # Marks emails sent with commits that do not wait for the disk (see sending_engine).
        self.sending_engine = sending_engine(self.engine)
        # The local Maildir's folders are made by the transports that use them (open_maildir).
        self.mail = mail = mail_settings(settings)
        self.intake = open_intake(
            mail,
            self._store,
            self._poison,
            DatabaseState(self),
            retry_delay=retry_delay,
            imap_options=ImapOptions(login_backoff=login_backoff),
        )
        self.sender = open_sender(mail)
        self.send_limits: SendLimits | None = settings.send_limits or (
            limits_for_host(mail.smtp.host) if mail.smtp is not None else None
        )
        self.send_gate = SendGate(login=login_backoff)
        self.log_setup = log_setup
        # Started by `serve` (or a benchmark) when sending over SMTP; else the cycle sends.
        self.sending: SendingProcess | None = None
        self.health = Health(self.engine, self.settings, name, clock)
        self.notifier = notifier or SystemdNotifier.from_env()
        self._stop = threading.Event()
        self._bell = threading.Event()
        self.alarms = AlarmClock(self.engine, name, self._bell)
        compile_templates()
        settle_startup_objects()

    def cycle(self, bot_seconds: float | None = None) -> CycleReport:
        """Take in the new mail, start the games whose sign-up start date came, act on passed
        deadlines, let computer players answer their mail (all of it, or what `bot_seconds` on
        the clock allow), then send what is due."""
        intake = self.intake.poll()
        if intake.error:
            log.warning("mail intake: %s", intake.error)
        # Before the outbox is sent, so a notice to the GM goes out in this cycle.
        self.health.record("imap", intake_link(intake, self.clock()))
        self.notifier.alive()
        run_signup_starts(self.engine, self.settings, self.clock)
        deadlines = self.run_deadlines()
        run_reminders(self.engine, self.settings, self.clock)
        archive = self.sender if self.settings.uses_maildir else None
        bots = answer_bot_mail(self.engine, self.settings, self.clock, archive, bot_seconds)
        self.notifier.alive()
        if self.sending is not None:
            outbox = self.sending.ring()  # it records the SMTP side of the health itself
        else:
            outbox = self.send_outbox()
            self.health.record("smtp", sender_link(outbox, self.send_gate))
        return CycleReport(intake, outbox, deadlines, bots.answered, not bots.finished)

    def cycle_once(self) -> CycleReport:
        """One cycle, as `pbem run --once` (from cron, say) runs it, and the daemon then marked
        stopped: no process waits for the next cycle, so `pbem status` must not call this
        daemon running, nor raise the alarm when no cycle follows."""
        try:
            return self.cycle()
        finally:
            self.health.stopped()

    def run_deadlines(self) -> int:
        return run_deadlines(self.engine, self.settings, self.clock, self.gm_address)

    def send_outbox(self) -> SendReport:
        # Sending here, not from a sending process: the marks a killed one left go first.
        move_marks_left(self.sending_engine)
        return send_outbox(
            self.sending_engine,
            self.sender,
            self.settings,
            self.clock,
            limits=self.send_limits,
            gate=self.send_gate,
            alive=self.notifier.alive,
        )

    def start_sending_process(self, wait_seconds: float = DEFAULT_WAIT_SECONDS) -> None:
        """From now on a process of its own sends the outbox (pbem.daemon.sending), rung after
        each email handled and each cycle, and every `wait_seconds`."""
        job = SendingJob(
            settings=self.settings,
            mail=self.mail,
            name=self.health.name,
            limits=self.send_limits,
            login_backoff=self.send_gate.login,
            wait_seconds=wait_seconds,
            parent_pid=os.getpid(),
            log_setup=self.log_setup,
        )
        self.sending = SendingProcess(job)

    def run_forever(self, wait_seconds: float = DEFAULT_WAIT_SECONDS) -> None:
        """Cycle until SIGTERM or SIGINT; the cycle under way when one comes is finished first."""
        stop_signals = (signal.SIGTERM, signal.SIGINT)
        previous = {sig: signal.signal(sig, self._on_signal) for sig in stop_signals}
        try:
            self.serve(wait_seconds)
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    def serve(self, wait_seconds: float = DEFAULT_WAIT_SECONDS) -> None:
        """Cycle until `stop()`, then close everything (any thread may run this)."""
        log.info("pbem daemon started for %s", self.settings.address)
        if self.mail.smtp is not None:
            try:
                self.start_sending_process(wait_seconds)
            except OSError as error:  # no process or semaphore to be had: send from this one
                log.warning("the outbox is sent by this process: %s", error)
        self.alarms.start()
        self.health.started(wait_seconds)
        self.notifier.ready()
        try:
            while not self._stop.is_set():
                self._bell.clear()  # this cycle reads every deadline due, rung or not
                report = self.cycle(BOT_SECONDS_PER_CYCLE)
                self.alarms.sync()
                self.notifier.status(_summary(report))
                if not report.bots_waiting:  # else the next cycle at once: they have mail
                    self._wait(wait_seconds)
        finally:
            self.notifier.stopping()
            self.health.stopped()
            self.close()
            log.info("pbem daemon stopped")

    def stop(self) -> None:
        self._stop.set()

    def close(self) -> None:
        if self.sending is not None:
            self.sending.stop()
            self.sending = None
        self.alarms.stop()
        self.intake.close()
        self.sender.close()
        self.notifier.close()
        self.sending_engine.dispose()
        self.engine.dispose()

    def _wait(self, seconds: float) -> None:
        """Until new mail, an alarm (a deadline or reminder is due), a stop, or `seconds`."""
        self.intake.wait_for_mail(seconds, self._interrupted)

    def _interrupted(self) -> bool:
        """Asked every second or so while waiting: the loop is alive, and should it stop?"""
        self.notifier.alive()
        # A sending process that ended is told by the next cycle (SendingProcessDied).
        sending_ended = self.sending is not None and not self.sending.alive
        return self._stop.is_set() or self._bell.is_set() or sending_ended

    def _on_signal(self, signum: int, _frame: FrameType | None) -> None:
        log.info("%s received: stopping after this cycle", signal.Signals(signum).name)
        self.stop()

    def _store(self, raw: bytes, source: str) -> bool:
        self.notifier.alive()
        with session_scope(self.engine) as session:
            result = handle_inbound(Desk(session, self.settings, self.clock), raw, source)
        if self.sending is not None:
            self.sending.nudge()  # the reply leaves now, while the next email is read
        log.info(
            "mail from %s: %s (%s)%s",
            source,
            result.status,
            result.reason,
            f" in {result.game_id}" if result.game_id else "",
        )
        return True

    def _poison(self, raw: bytes, source: str, error: str) -> None:
        """Keep the email that could not be handled as a failed inbound row, and tell the GM."""
        headers = BytesHeaderParser().parsebytes(raw)
        key = message_key(headers.get("Message-ID"), raw)
        with session_scope(self.engine) as session:
            record_inbound(session, message_key=key, raw=raw, source=source)
            row = inbound_by_key(session, key)  # stored just now, or before
            if row is not None:
                row.status, row.reason = "failed", error
                session.add(row)
            if self.gm_address:
                desk = Desk(session, self.settings, self.clock)
                desk.postman.post(
                    notice_letter(
                        to=self.gm_address,
                        game=None,
                        seat=None,
                        settings=self.settings,
                        words="An email could not be handled",
                        lines=[
                            f"The email {key} ({source}) failed three times and was set aside "
                            "in pbem/failed.",
                            f"Last error: {error}",
                        ],
                    ),
                    None,
                )
        log.error("set aside %s after repeated failures: %s", source, error)


def mail_settings(settings: Settings) -> MailSettings:
    return MailSettings.from_env(
        {
            IMAP_URL_VARIABLE: settings.imap_url or "",
            SMTP_URL_VARIABLE: settings.smtp_url or "",
            MAILDIR_VARIABLE: settings.maildir,
            **dict(settings.mail_files),
        }
    )


def _summary(report: CycleReport) -> str:
    """One line for `systemctl status`."""
    failures = "; ".join(report.transport_failures)
    return (
        f"received {report.intake.stored}, sent {report.outbox.sent}, "
        f"deferred {report.outbox.deferred}" + (f"; {failures}" if failures else "")
    )
