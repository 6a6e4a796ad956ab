"""A daemon on a fresh SQLite database, reading a real Dovecot mailbox and sending to aiosmtpd."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pbem.daemon import Daemon
from pbem.settings import Settings
from tests.support.dovecot import DovecotServer
from tests.support.smtpd import SmtpServer

MODERATOR = "pbem@example.org"


@pytest.fixture
def server_settings(tmp_path: Path, dovecot: DovecotServer, smtp_server: SmtpServer) -> Settings:
    return Settings(
        database_url=f"sqlite:///{tmp_path}/pbem.sqlite3",
        address=MODERATOR,
        imap_url=dovecot.imap_url(),
        smtp_url=smtp_server.url(),
        maildir=str(tmp_path / "mail"),
    )


@pytest.fixture
def make_daemon() -> Iterator[Callable[[Settings], Daemon]]:
    made: list[Daemon] = []

    def make(settings: Settings) -> Daemon:
        daemon = Daemon(settings, retry_delay=0.0)
        made.append(daemon)
        return daemon

    yield make
    for daemon in made:
        daemon.close()
