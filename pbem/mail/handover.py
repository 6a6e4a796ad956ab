"""Handing one message to the store callback, and setting aside those that keep failing.

Shared by every intake: the transport decides how to acknowledge or set a message aside, this
decides when. Failure counts live in memory only: after a restart a failing message gets its
full count of attempts again, which can only delay setting it aside, never lose it.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from enum import Enum

from pbem.mail.timing import Clock
from pbem.mail.transport import ReportPoison, StoreMessage

log = logging.getLogger(__name__)

DEFAULT_MAX_ATTEMPTS = 3
DEFAULT_RETRY_DELAY = 60.0
DECLINED = "the store did not commit the message"


class Verdict(Enum):
    STORED = "stored"
    """Committed: acknowledge it."""
    RETRY_LATER = "retry later"
    """Not committed: leave it unseen where it is."""
    POISON = "poison"
    """Failed too often; the GM has been told: set it aside."""


@dataclass
class _Failures:
    attempts: int
    error: str
    retry_at: float
    reported: bool = False


@dataclass
class HandOver:
    """Offers messages to `store`; after `max_attempts` failures reports them to `on_poison`.

    A failed message is offered again no sooner than `retry_delay` seconds later, so a store
    that is briefly down does not burn through the attempts in one burst.
    """

    store: StoreMessage
    on_poison: ReportPoison
    max_attempts: int = DEFAULT_MAX_ATTEMPTS
    retry_delay: float = DEFAULT_RETRY_DELAY
    clock: Clock = time.monotonic
    _failures: dict[str, _Failures] = field(default_factory=dict, init=False)

    def is_due(self, source: str) -> bool:
        """Whether offering this message now makes sense (new, due for a retry, or poisoned)."""
        failures = self._failures.get(source)
        return (
            failures is None
            or failures.attempts >= self.max_attempts
            or self.clock() >= failures.retry_at
        )

    def offer(self, raw: bytes, source: str) -> Verdict:
        failures = self._failures.get(source)
        if failures is None or failures.attempts < self.max_attempts:
            error = self._try_store(raw, source)
            if error is None:
                self._failures.pop(source, None)
                return Verdict.STORED
            failures = self._record_failure(source, error)
            if failures.attempts < self.max_attempts:
                return Verdict.RETRY_LATER
        if not failures.reported:
            # Told before the message is moved: should the move fail, the GM has still heard.
            self.on_poison(raw, source, failures.error)
            failures.reported = True
        return Verdict.POISON

    def set_aside(self, source: str) -> None:
        """The poisoned message has been moved out of the way: nothing more to remember."""
        self._failures.pop(source, None)

    def forget_all(self) -> None:
        """The sources no longer name the same messages (the server renumbered them)."""
        self._failures.clear()

    def _try_store(self, raw: bytes, source: str) -> str | None:
        try:
            committed = self.store(raw, source)
        except Exception as error:  # the callback is the daemon's code: any failure is a failure
            log.warning("storing %s failed", source, exc_info=True)
            return f"{type(error).__name__}: {error}"
        return None if committed else DECLINED

    def _record_failure(self, source: str, error: str) -> _Failures:
        failures = self._failures.get(source)
        if failures is None:
            failures = _Failures(attempts=0, error=error, retry_at=0.0)
            self._failures[source] = failures
        failures.attempts += 1
        failures.error = error
        failures.retry_at = self.clock() + self.retry_delay
        log.info("message %s not stored (attempt %d): %s", source, failures.attempts, error)
        return failures
