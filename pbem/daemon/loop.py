"""The mail daemon: take in mail, handle it, send the outbox, again and again until stopped.

One cycle does intake, deadlines and reminders, the computer players' mail and the outbox in
turn; then the daemon waits for new mail (IMAP IDLE where offered, polling otherwise), for an
alarm (APScheduler jobs in the database, `alarms.py`) or for at most `wait_seconds`.
"""

from __future__ import annotations

import logging
import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from email.parser import BytesHeaderParser
from types import FrameType

from pbem.daemon.alarms import AlarmClock
from pbem.daemon.deadlines import run_deadlines, run_reminders
from pbem.daemon.outbox import SendReport, send_outbox
from pbem.mail.config import IMAP_URL_VARIABLE, MAILDIR_VARIABLE, SMTP_URL_VARIABLE, MailSettings
from pbem.mail.factory import open_intake, open_sender
from pbem.mail.handover import DEFAULT_RETRY_DELAY
from pbem.mail.transport import PollReport
from pbem.moderator.bots import answer_bot_mail
from pbem.moderator.desk import Desk
from pbem.moderator.inbound import handle_inbound
from pbem.moderator.letters import notice_letter
from pbem.settings import Settings
from pbem.store import (
    get_mail_state,
    inbound_by_key,
    message_key,
    open_database,
    record_inbound,
    session_scope,
    set_mail_state,
    utc_now,
)

log = logging.getLogger("pbem.daemon")

DEFAULT_WAIT_SECONDS = 300.0
# The wait for mail is cut into slices this long, so a stop request is noticed soon.
STOP_CHECK_SECONDS = 5.0


@dataclass(frozen=True)
class CycleReport:
    intake: PollReport
    outbox: SendReport
    deadlines: int
    bots: int


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
    ) -> None:
        # `--gm` on the command line wins over PBEM_GM_ADDRESS.
        self.settings = replace(settings, gm_address=gm_address or settings.gm_address)
        self.gm_address = self.settings.gm_address
        self.clock = clock
        self.engine = open_database(settings.database_url)
        mail = mail_settings(settings)
        if mail.imap is None or mail.smtp is None:
            mail.maildir.mkdir(parents=True, exist_ok=True)
        self.intake = open_intake(
            mail, self._store, self._poison, DatabaseState(self), retry_delay=retry_delay
        )
        self.sender = open_sender(mail)
        self._stop = threading.Event()
        self._bell = threading.Event()
        self.alarms = AlarmClock(self.engine, name, self._bell)

    def cycle(self) -> CycleReport:
        """Take in the new mail, act on passed deadlines, let computer players answer their mail,
        then send what is due."""
        intake = self.intake.poll()
        if intake.error:
            log.warning("mail intake: %s", intake.error)
        deadlines = self.run_deadlines()
        run_reminders(self.engine, self.settings, self.clock)
        archive = self.sender if self.settings.uses_maildir else None
        bots = answer_bot_mail(self.engine, self.settings, self.clock, archive)
        return CycleReport(intake, self.send_outbox(), deadlines, bots)

    def run_deadlines(self) -> int:
        return run_deadlines(self.engine, self.settings, self.clock, self.gm_address)

    def send_outbox(self) -> SendReport:
        return send_outbox(self.engine, self.sender, self.settings, self.clock)

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
        self.alarms.start()
        try:
            while not self._stop.is_set():
                self._bell.clear()  # this cycle reads every deadline due, rung or not
                self.cycle()
                self.alarms.sync()
                self._wait(wait_seconds)
        finally:
            self.close()
            log.info("pbem daemon stopped")

    def stop(self) -> None:
        self._stop.set()

    def close(self) -> None:
        self.alarms.stop()
        self.intake.close()
        self.sender.close()
        self.engine.dispose()

    def _wait(self, seconds: float) -> None:
        """Until new mail, an alarm (a deadline or reminder is due), a stop, or `seconds`."""
        waited = 0.0
        while waited < seconds and not self._stop.is_set() and not self._bell.is_set():
            step = min(STOP_CHECK_SECONDS, seconds - waited)
            if self.intake.wait_for_mail(step):
                return
            waited += step

    def _on_signal(self, signum: int, _frame: FrameType | None) -> None:
        log.info("%s received: stopping after this cycle", signal.Signals(signum).name)
        self.stop()

    def _store(self, raw: bytes, source: str) -> bool:
        with session_scope(self.engine) as session:
            result = handle_inbound(Desk(session, self.settings, self.clock), raw, source)
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
            row = record_inbound(session, message_key=key, raw=raw, source=source)
            row = row or inbound_by_key(session, key)
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
