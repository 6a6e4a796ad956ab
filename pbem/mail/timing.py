"""Waiting: how long to back off before trying again, and waiting for a condition by polling."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

Clock = Callable[[], float]
Sleep = Callable[[float], None]
Interrupted = Callable[[], bool]
"""Asked at least every `WAKE_CHECK_SECONDS` while waiting: True ends the wait early (a stop
request, an alarm). Asking costs no server round trip, so a long IDLE stays one IDLE."""

WAKE_CHECK_SECONDS = 1.0


def never() -> bool:
    """The `Interrupted` of a wait nothing cuts short."""
    return False


@dataclass(frozen=True)
class Backoff:
    """Exponential delays: `first` after one failed attempt, doubling, never more than `cap`."""

    first: float
    cap: float

    def delay(self, attempts: int) -> float:
        """Seconds to wait before the next attempt when `attempts` have failed so far."""
        if attempts <= 0:
            return 0.0
        # The exponent is bounded so a long outage cannot overflow the float.
        return min(self.cap, self.first * 2.0 ** min(attempts - 1, 62))


# Mail that could not be handed over: a minute, then 2, 4, ... at most every hour.
SEND_BACKOFF = Backoff(first=60.0, cap=3600.0)
# A dropped mail server connection: retried within a second, then at most every minute.
RECONNECT_BACKOFF = Backoff(first=1.0, cap=60.0)
# A login the server refused (or a TLS failure): a minute, doubling to an hour, so a wrong
# password costs a few dozen failed logins a day instead of hundreds an hour.
LOGIN_BACKOFF = Backoff(first=60.0, cap=3600.0)


def next_attempt_delay(attempts: int, backoff: Backoff = SEND_BACKOFF) -> float:
    """Seconds before sending again a message whose delivery failed `attempts` times."""
    return backoff.delay(attempts)


def wait_until(
    condition: Callable[[], bool],
    timeout: float,
    interval: float,
    sleep: Sleep = time.sleep,
    clock: Clock = time.monotonic,
    interrupted: Interrupted = never,
) -> bool:
    """Checks `condition` every `interval` seconds; True as soon as it holds, False at timeout
    or once `interrupted`."""
    deadline = clock() + timeout
    while True:
        if condition():
            return True
        remaining = deadline - clock()
        if remaining <= 0 or not pause(min(interval, remaining), sleep, clock, interrupted):
            return False


def pause(
    seconds: float, sleep: Sleep, clock: Clock = time.monotonic, interrupted: Interrupted = never
) -> bool:
    """Sleeps `seconds` in slices, asking `interrupted` between them; False when interrupted."""
    until = clock() + seconds
    while (remaining := until - clock()) > 0:
        if interrupted():
            return False
        sleep(min(remaining, WAKE_CHECK_SECONDS))
    return not interrupted()
