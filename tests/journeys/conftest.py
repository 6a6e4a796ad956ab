"""Whole games played by mail through a real Dovecot inbox and SMTP server (tests/support)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pbem.daemon import Daemon
from pbem.settings import Settings
from tests.support.dovecot import DovecotServer
from tests.support.smtpd import SmtpServer

MODERATOR = "pbem@example.org"


@pytest.fixture
def daemon(tmp_path: Path, dovecot: DovecotServer, smtp_server: SmtpServer) -> Iterator[Daemon]:
    settings = Settings(
        database_url=f"sqlite:///{tmp_path}/pbem.sqlite3",
        address=MODERATOR,
        imap_url=dovecot.imap_url(),
        smtp_url=smtp_server.url(),
        maildir=str(tmp_path / "mail"),
    )
    moderator = Daemon(settings, retry_delay=0.0)
    yield moderator
    moderator.close()
