"""Fixtures every test folder may use: the real mail servers the tests talk to."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.dovecot import DovecotServer, running_dovecot, skip_without_dovecot
from tests.support.smtpd import SmtpServer, running_smtpd


@pytest.fixture
def dovecot() -> Iterator[DovecotServer]:
    """A Dovecot IMAP server of the test's own on 127.0.0.1, run as nobody."""
    skip_without_dovecot()
    with running_dovecot() as server:
        yield server


@pytest.fixture
def smtp_server() -> Iterator[SmtpServer]:
    """An aiosmtpd server on 127.0.0.1 that keeps what it receives."""
    with running_smtpd() as server:
        yield server
