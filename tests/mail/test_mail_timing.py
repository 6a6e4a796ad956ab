"""Backoff delays and polling waits."""

from __future__ import annotations

from itertools import pairwise

from pbem.mail.timing import SEND_BACKOFF, Backoff, next_attempt_delay, wait_until


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


def test_send_retry_delay_doubles_from_a_minute_up_to_an_hour() -> None:
    delays = [next_attempt_delay(attempts) for attempts in range(1, 10)]
    assert delays[:4] == [60.0, 120.0, 240.0, 480.0]
    assert delays[-1] == SEND_BACKOFF.cap
    assert all(later >= earlier for earlier, later in pairwise(delays))


def test_no_failed_attempt_means_no_wait() -> None:
    assert next_attempt_delay(0) == 0.0


def test_backoff_survives_a_very_long_outage() -> None:
    assert Backoff(first=1.0, cap=60.0).delay(10_000) == 60.0


def test_wait_until_returns_as_soon_as_the_condition_holds() -> None:
    clock = FakeClock()
    assert wait_until(lambda: clock.now >= 2.5, 10.0, 1.0, clock.sleep, clock)
    assert clock.now == 3.0


def test_wait_until_gives_up_at_the_timeout_without_oversleeping() -> None:
    clock = FakeClock()
    assert not wait_until(lambda: False, 2.5, 1.0, clock.sleep, clock)
    assert clock.sleeps == [1.0, 1.0, 0.5]
