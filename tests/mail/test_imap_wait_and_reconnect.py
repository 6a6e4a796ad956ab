"""Waiting for mail (IDLE, or polling) and surviving a Dovecot that goes away mid-run."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest

from pbem.mail.transport import PollReport
from tests.mail.recording import IntakeFactory, RecordingStore, message_id, player_email
from tests.support.dovecot import DovecotServer

pytestmark = pytest.mark.imap

PROMPT = 2.0


@contextmanager
def in_background(delay: float, action: Callable[[], None]) -> Iterator[None]:
    """Runs `action` in another thread after `delay` seconds, as another client would."""
    timer = threading.Timer(delay, action)
    timer.start()
    try:
        yield
    finally:
        timer.join()


def processed_ids(dovecot: DovecotServer) -> list[str]:
    return [message_id(raw) for raw, seen in dovecot.messages("pbem/processed") if seen]


def test_idle_wakes_promptly_when_another_client_appends_mail(
    dovecot: DovecotServer, imap_intake: IntakeFactory
) -> None:
    intake = imap_intake()
    intake.poll()
    started = time.monotonic()
    with in_background(0.3, lambda: dovecot.append(player_email(1))):
        woke = intake.wait_for_mail(timeout=10.0)
    assert woke
    assert time.monotonic() - started < PROMPT
    assert intake.poll().stored == 1


def test_wait_returns_false_when_no_mail_comes(imap_intake: IntakeFactory) -> None:
    intake = imap_intake()
    intake.poll()
    started = time.monotonic()
    assert not intake.wait_for_mail(timeout=0.4)
    assert 0.4 <= time.monotonic() - started < PROMPT


def test_wait_returns_at_once_when_new_mail_is_already_waiting(
    dovecot: DovecotServer, imap_intake: IntakeFactory
) -> None:
    intake = imap_intake()
    intake.poll()
    dovecot.append(player_email(1))
    started = time.monotonic()
    assert intake.wait_for_mail(timeout=10.0)
    assert time.monotonic() - started < PROMPT


def test_a_message_waiting_for_its_retry_does_not_wake_the_wait(
    dovecot: DovecotServer, recorder: RecordingStore, imap_intake: IntakeFactory
) -> None:
    dovecot.append(player_email(1))
    recorder.script = [False]
    intake = imap_intake()
    intake.handover.retry_delay = 60.0
    intake.poll()
    assert not intake.wait_for_mail(timeout=0.3)


def test_without_idle_the_wait_polls_the_folder(
    dovecot: DovecotServer, imap_intake: IntakeFactory
) -> None:
    intake = imap_intake(use_idle=False, poll_interval=0.1)
    intake.poll()
    started = time.monotonic()
    with in_background(0.3, lambda: dovecot.append(player_email(1))):
        assert intake.wait_for_mail(timeout=10.0)
    assert time.monotonic() - started < PROMPT


def test_server_restart_between_polls_loses_and_repeats_nothing(
    dovecot: DovecotServer, recorder: RecordingStore, imap_intake: IntakeFactory
) -> None:
    intake = imap_intake()
    for number in (1, 2, 3):
        dovecot.append(player_email(number))
    assert intake.poll().stored == 3
    dovecot.restart()
    for number in (4, 5):
        dovecot.append(player_email(number))

    report = intake.poll()

    assert report.stored == 2
    assert report.error is not None and "lost" in report.error
    assert len(recorder.offered) == 5 and recorder.repeats == 0
    assert processed_ids(dovecot) == [f"<order-{n}@example.org>" for n in range(1, 6)]


@pytest.mark.parametrize("crash", [False, True], ids=["orderly", "crash"])
def test_server_restart_while_idling_wakes_the_wait_once_reconnected(
    dovecot: DovecotServer, imap_intake: IntakeFactory, crash: bool
) -> None:
    intake = imap_intake()
    intake.poll()

    def restart_then_deliver() -> None:
        dovecot.restart(crash)
        dovecot.append(player_email(1))

    with in_background(0.3, restart_then_deliver):
        assert intake.wait_for_mail(timeout=10.0)
    assert intake.connected
    assert intake.poll().stored == 1


def test_commit_followed_by_a_lost_connection_is_acknowledged_not_stored_again(
    dovecot: DovecotServer, recorder: RecordingStore, imap_intake: IntakeFactory
) -> None:
    for number in (1, 2, 3):
        dovecot.append(player_email(number))

    def crash_during_second(raw: bytes, source: str) -> None:
        if len(recorder.offered) == 2:
            dovecot.restart()  # the store commits, but the acknowledgement cannot reach the server

    recorder.during_store = crash_during_second

    report = imap_intake().poll()

    assert report.stored == 3 and report.error is not None
    assert len(recorder.offered) == 3 and recorder.repeats == 0
    assert dovecot.messages("INBOX") == []
    assert processed_ids(dovecot) == [f"<order-{n}@example.org>" for n in (1, 2, 3)]


def test_poison_is_reported_once_even_if_setting_it_aside_is_interrupted(
    dovecot: DovecotServer, recorder: RecordingStore, imap_intake: IntakeFactory
) -> None:
    dovecot.append(player_email(1))
    recorder.script = [False, False, False]

    def crash_on_third(raw: bytes, source: str) -> None:
        if len(recorder.offered) == 3:
            dovecot.restart()

    recorder.during_store = crash_on_third
    intake = imap_intake()

    reports = [intake.poll() for _ in range(4)]

    assert reports[2].poisoned == 1
    assert len(recorder.poisoned) == 1 and len(recorder.offered) == 3
    assert [message_id(raw) for raw, _ in dovecot.messages("pbem/failed")] == [
        "<order-1@example.org>"
    ]
    assert dovecot.messages("INBOX") == []


def test_server_down_is_reported_then_mail_is_taken_once_it_is_back(
    dovecot: DovecotServer, imap_intake: IntakeFactory
) -> None:
    intake = imap_intake()
    intake.poll()
    dovecot.append(player_email(1))
    dovecot.stop()

    down = intake.poll()
    started = time.monotonic()
    waited = intake.wait_for_mail(timeout=0.3)
    waited_for = time.monotonic() - started
    dovecot.start()
    back = intake.wait_for_mail(timeout=5.0)

    assert down.stored == 0 and down.error is not None
    assert not waited and waited_for < PROMPT
    assert back and intake.poll() == PollReport(stored=1)


def test_repeated_restarts_under_load_lose_and_repeat_nothing(
    dovecot: DovecotServer, recorder: RecordingStore, imap_intake: IntakeFactory
) -> None:
    count = 40
    for number in range(count):
        dovecot.append(player_email(number))

    def restart_every_seventh(raw: bytes, source: str) -> None:
        offered = len(recorder.offered)
        if offered % 7 == 0:
            dovecot.restart(crash=offered % 14 == 0)

    recorder.during_store = restart_every_seventh
    intake = imap_intake(batch_size=5)
    stored = 0
    for _ in range(count):
        stored += intake.poll().stored
        if not dovecot.messages("INBOX"):
            break

    assert recorder.repeats == 0
    assert len(recorder.committed) == count
    assert len(processed_ids(dovecot)) == count
