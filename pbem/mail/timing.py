"""Waiting: how long to back off before trying again, and waiting for a condition by polling."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

Clock = Callable[[], float]
Sleep = Callable[[float], None]


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


def next_attempt_delay(attempts: int, backoff: Backoff = SEND_BACKOFF) -> float:
    """Seconds before sending again a message whose delivery failed `attempts` times."""
    return backoff.delay(attempts)


def wait_until(
    condition: Callable[[], bool],
    timeout: float,
    interval: float,
    sleep: Sleep = time.sleep,
    clock: Clock = time.monotonic,
) -> bool:
    """Checks `condition` every `interval` seconds; True as soon as it holds, False at timeout."""
    deadline = clock() + timeout
    while True:
        if condition():
            return True
        remaining = deadline - clock()
        if remaining <= 0:
            return False
        sleep(min(interval, remaining))
