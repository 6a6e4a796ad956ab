"""The IMAP intake: new mail in the moderator's folder goes to the store, then out of the way.

Each message in the folder is fetched (without marking it seen), handed to `store`, and only once
`store` says it is committed is it flagged \\Seen and moved to `pbem/processed`. A message that
fails `max_attempts` times is reported to `on_poison` and moved, still unseen, to `pbem/failed`.

UIDVALIDITY: UIDs only name messages while the folder's UIDVALIDITY stays the same; it is kept in
the injected key-value state. When it changes (the server lost or rebuilt its index), everything
remembered by UID is dropped: acknowledged mail was moved out of the folder, so it is not replayed.
Mail the server brings back into the folder is handed over again under a new `source`; the store
recognises it by its Message-ID.

Seen or not, every message in the folder is taken: a daemon killed between flagging a message
seen and moving it leaves it seen in the folder, and it must still be filed (the store knows it
and has no second effect). A person reading the folder hides nothing from the moderator.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from enum import Enum
from functools import partial
from urllib.parse import quote

from pbem.mail.config import ImapConfig
from pbem.mail.errors import MailError, tls_misconfigured
from pbem.mail.handover import HandOver, Verdict
from pbem.mail.imap_session import SESSION_ERRORS, ImapSession
from pbem.mail.timing import (
    LOGIN_BACKOFF,
    RECONNECT_BACKOFF,
    Backoff,
    Clock,
    Interrupted,
    Sleep,
    never,
    pause,
    wait_until,
)
from pbem.mail.transport import KeyValueState, PollReport

log = logging.getLogger(__name__)

PROCESSED_FOLDER = "pbem/processed"
FAILED_FOLDER = "pbem/failed"


class _Pending(Enum):
    """What is left to do with a message whose outcome is settled but not yet on the server."""

    ACKNOWLEDGE = "acknowledge"
    SET_ASIDE = "set aside"


@dataclass(frozen=True)
class ImapOptions:
    batch_size: int = 50
    command_timeout: float = 30.0
    use_idle: bool = True
    """False: wait by polling every `poll_interval` even where the server offers IDLE."""
    poll_interval: float = 30.0
    reconnect: Backoff = RECONNECT_BACKOFF
    login_backoff: Backoff = LOGIN_BACKOFF
    """After a refused login, a TLS certificate refused or a missing folder."""
    processed_folder: str = PROCESSED_FOLDER
    failed_folder: str = FAILED_FOLDER


@dataclass
class ImapIntake:
    """An `Intake` over IMAP. Reconnects by itself: soon after a dropped connection, after a
    minute doubling to an hour when what failed needs a person (credentials, a certificate, a
    missing folder), so a wrong password does not lock the account."""

    config: ImapConfig
    handover: HandOver
    state: KeyValueState
    options: ImapOptions = field(default_factory=ImapOptions)
    sleep: Sleep = time.sleep
    clock: Clock = time.monotonic
    _session: ImapSession | None = field(default=None, init=False)
    _failed_connects: int = field(default=0, init=False)
    _needs_person: bool = field(default=False, init=False)
    _next_connect_at: float = field(default=0.0, init=False)
    _last_error: str | None = field(default=None, init=False)
    # Committed (or reported) but not yet acknowledged on the server, by UID: finished first on
    # the next pass, and never handed to the store again.
    _pending: dict[int, _Pending] = field(default_factory=dict, init=False)

    @property
    def state_key(self) -> str:
        return f"imap-uidvalidity:{self.config.address}"

    @property
    def connected(self) -> bool:
        return self._session is not None

    def poll(self) -> PollReport:
        report = PollReport()
        # A second round only when the first found the connection dead: it reconnects at once.
        for _ in range(2):
            session = self._connected_session()
            if session is None:
                report.error = self._last_error
                report.needs_person = self._needs_person
                report.retry_in = max(0.0, self._next_connect_at - self.clock())
                report.failures = self._failed_connects
                return report
            try:
                self._pass(session, report)
                return report
            except SESSION_ERRORS as error:
                self._drop(error)
                report.error = self._last_error
        return report

    def wait_for_mail(self, timeout: float, interrupted: Interrupted = never) -> bool:
        deadline = self.clock() + timeout
        while (remaining := deadline - self.clock()) > 0 and not interrupted():
            session = self._session
            if session is None:
                # Mail may have come while the connection was down: look once reconnected.
                return self._reconnect_before(deadline, interrupted)
            try:
                if self._has_due_mail(session):
                    return True
                if session.can_idle and self.options.use_idle:
                    return session.idle_until_mail(remaining, self.clock, interrupted)
                return wait_until(
                    partial(self._has_due_mail, session),
                    remaining,
                    self.options.poll_interval,
                    self.sleep,
                    self.clock,
                    interrupted,
                )
            except SESSION_ERRORS as error:
                self._drop(error)
        return False

    def close(self) -> None:
        if self._session is not None:
            self._session.close()
            self._session = None

    def source_of(self, uidvalidity: int, uid: int) -> str:
        """An RFC 5092 IMAP URL naming the message: stable while UIDVALIDITY stays the same."""
        config = self.config
        return (
            f"imap://{quote(config.user, safe='')}@{config.host}:{config.port}/"
            f"{quote(config.folder)};UIDVALIDITY={uidvalidity}/;UID={uid}"
        )

    def _pass(self, session: ImapSession, report: PollReport) -> None:
        self._finish_pending(session)
        uids = [
            uid
            for uid in session.waiting_uids()
            if self.handover.is_due(self.source_of(session.uidvalidity, uid))
        ]
        for start in range(0, len(uids), self.options.batch_size):
            batch = uids[start : start + self.options.batch_size]
            for uid, raw in sorted(session.fetch_raw(batch).items()):
                self._hand_over(session, uid, raw, report)
            # One acknowledgement for the batch: a crash before it hands the batch over again,
            # which the store recognises, so nothing is applied twice.
            self._finish_pending(session)

    def _hand_over(self, session: ImapSession, uid: int, raw: bytes, report: PollReport) -> None:
        source = self.source_of(session.uidvalidity, uid)
        verdict = self.handover.offer(raw, source)
        if verdict is Verdict.RETRY_LATER:
            report.retry_later += 1
            return
        if verdict is Verdict.STORED:
            report.stored += 1
            self._pending[uid] = _Pending.ACKNOWLEDGE
        else:
            report.poisoned += 1
            self._pending[uid] = _Pending.SET_ASIDE

    def _finish_pending(self, session: ImapSession) -> None:
        """Acknowledge the stored messages together, then set aside the poisoned ones."""
        stored = sorted(uid for uid, todo in self._pending.items() if todo is _Pending.ACKNOWLEDGE)
        if stored:
            session.acknowledge(stored)
            for uid in stored:
                del self._pending[uid]
        for uid in sorted(self._pending):
            session.set_aside(uid)
            self.handover.set_aside(self.source_of(session.uidvalidity, uid))
            del self._pending[uid]

    def _has_due_mail(self, session: ImapSession) -> bool:
        return any(
            uid not in self._pending
            and self.handover.is_due(self.source_of(session.uidvalidity, uid))
            for uid in session.waiting_uids()
        )

    def _connected_session(self) -> ImapSession | None:
        if self._session is None and self.clock() >= self._next_connect_at:
            self._connect()
        return self._session

    def _reconnect_before(self, deadline: float, interrupted: Interrupted) -> bool:
        """Reconnects when the backoff allows, before `deadline`: True once connected. After a
        failure only a person can cure, False at once, so the daemon's cycle reports it."""
        while True:
            wake_at = min(self._next_connect_at, deadline)
            if not pause(max(0.0, wake_at - self.clock()), self.sleep, self.clock, interrupted):
                return False
            if self._connected_session() is not None:
                return True
            if self.clock() >= deadline or self._needs_person:
                return False

    def _connect(self) -> None:
        options = self.options
        try:
            session = ImapSession.open(
                self.config,
                options.processed_folder,
                options.failed_folder,
                options.command_timeout,
            )
        except MailError as error:
            self._back_off(error, needs_person=True)
            return
        except SESSION_ERRORS as error:
            self._back_off(error, needs_person=tls_misconfigured(error))
            return
        self._failed_connects = 0
        self._needs_person = False
        self._last_error = None
        self._note_uidvalidity(session.uidvalidity)
        self._session = session
        log.info("connected to %s", self.config.address)

    def _back_off(self, error: Exception, needs_person: bool) -> None:
        """Wait before the next attempt: soon after a dropped connection; a minute, doubling to
        an hour, after what only a person cures (trying again soon would lock the account)."""
        first = needs_person and not self._needs_person
        # The count starts anew when the kind of failure changes: each has its own backoff.
        same_kind = needs_person == self._needs_person
        self._failed_connects = self._failed_connects + 1 if same_kind else 1
        self._needs_person = needs_person
        backoff = self.options.login_backoff if needs_person else self.options.reconnect
        delay = backoff.delay(self._failed_connects)
        self._next_connect_at = self.clock() + delay
        if needs_person:
            self._last_error = f"{self.config.address}: {error}"
        else:
            self._last_error = f"cannot reach {self.config.address}: {error}"
        level = logging.ERROR if first else logging.WARNING
        log.log(level, "%s; next attempt in %gs", self._last_error, delay)

    def _note_uidvalidity(self, uidvalidity: int) -> None:
        known = self.state.get(self.state_key)
        if known is not None and known != str(uidvalidity):
            log.warning(
                "UIDVALIDITY of %s changed from %s to %d: UIDs were renumbered; the mail "
                "still in the folder is taken, as always",
                self.config.address,
                known,
                uidvalidity,
            )
            self.handover.forget_all()
            self._pending.clear()
        if known != str(uidvalidity):
            self.state.set(self.state_key, str(uidvalidity))

    def _drop(self, error: Exception) -> None:
        """The connection failed: forget it; the next poll or wait reconnects at once."""
        self._last_error = f"connection to {self.config.address} lost: {error}"
        log.warning("%s", self._last_error)
        if self._session is not None:
            self._session.abandon()
            self._session = None
        self._next_connect_at = self.clock()
