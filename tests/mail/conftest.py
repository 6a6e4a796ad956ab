"""Fixtures for the mail tests: real servers, recording callbacks, intakes wired to both."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from pbem.mail.config import parse_imap_url
from pbem.mail.imap import ImapIntake, ImapOptions
from pbem.mail.transport import MemoryState
from tests.mail.recording import QUICK_RECONNECT, IntakeFactory, RecordingStore
from tests.support.certs import SelfSignedCa, make_ca
from tests.support.dovecot import DovecotServer, running_dovecot, skip_without_dovecot


@pytest.fixture(scope="session")
def test_ca(tmp_path_factory: pytest.TempPathFactory) -> SelfSignedCa:
    """A self-signed CA and a certificate it signed for 127.0.0.1, for the test servers."""
    return make_ca(tmp_path_factory.mktemp("ca"), "pbem-test")


@pytest.fixture(scope="session")
def wrong_ca(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The certificate of another CA, which signed none of the servers' certificates."""
    return make_ca(tmp_path_factory.mktemp("wrong-ca"), "stranger").ca_file


@pytest.fixture
def tls_dovecot(test_ca: SelfSignedCa) -> Iterator[DovecotServer]:
    """Dovecot offering STARTTLS on `port` and TLS from the start on `tls_port`."""
    skip_without_dovecot()
    with running_dovecot(tls=test_ca) as server:
        yield server


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
