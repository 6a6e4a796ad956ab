"""Fixtures for the mail tests: real servers, recording callbacks, intakes wired to both."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from pbem.mail.config import parse_imap_url
from pbem.mail.imap import ImapIntake, ImapOptions
from pbem.mail.transport import MemoryState
from tests.mail.recording import QUICK_RECONNECT, IntakeFactory, RecordingStore
from tests.support.dovecot import DovecotServer


@pytest.fixture
def recorder() -> RecordingStore:
    return RecordingStore()


@pytest.fixture
def imap_intake(dovecot: DovecotServer, recorder: RecordingStore) -> Iterator[IntakeFactory]:
    """Builds intakes on the test's Dovecot with the recorder as store; closes them after."""
    made: list[ImapIntake] = []

    def make(state: MemoryState | None = None, **options: Any) -> ImapIntake:
        settings = replace(ImapOptions(reconnect=QUICK_RECONNECT, command_timeout=5.0), **options)
        intake = ImapIntake(
            parse_imap_url(dovecot.imap_url()),
            recorder.handover(),
            state if state is not None else MemoryState(),
            settings,
        )
        made.append(intake)
        return intake

    yield make
    for intake in made:
        intake.close()
