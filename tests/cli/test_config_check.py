"""`pbem config check` tells the truth: each broken setup exits non-zero with what to fix, a
working one exits 0, and `--probe` proves sending, receiving and plus-addressing against Dovecot
fed by an SMTP server that delivers into it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session

from tests.cli.conftest import Pbem
from tests.support.dovecot import HOST, DovecotServer, free_port
from tests.support.smtpd import SmtpServer

MODERATOR = "moderator@example.org"  # Dovecot's test user `moderator` is the moderator's mailbox


@dataclass
class DeliverToDovecot:
    """aiosmtpd handler: mail for the moderator is appended to its Dovecot INBOX, as a provider's
    delivery would; with `plus` False, plus-addressed mail is accepted and then lost."""

    dovecot: DovecotServer
    plus: bool
    folder: str = "INBOX"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        for recipient in envelope.rcpt_tos:
            local, _, domain = str(recipient).lower().partition("@")
            mailbox = local.partition("+")[0] if self.plus else local
            if f"{mailbox}@{domain}" == MODERATOR:
                self.dovecot.append(envelope.original_content or b"", folder=self.folder)
        return "250 Message accepted for delivery"


@contextmanager
def smtp_into(dovecot: DovecotServer, plus: bool, folder: str = "INBOX") -> Iterator[Controller]:
    handler = DeliverToDovecot(dovecot, plus, folder)
    controller = Controller(handler, hostname=HOST, port=free_port())
    controller.start()
    try:
        yield controller
    finally:
        controller.stop()


@pytest.fixture
def delivering_smtp(dovecot: DovecotServer) -> Iterator[Controller]:
    with smtp_into(dovecot, plus=True) as controller:
        yield controller


@pytest.fixture
def losing_smtp(dovecot: DovecotServer) -> Iterator[Controller]:
    with smtp_into(dovecot, plus=False) as controller:
        yield controller


def servers(dovecot: DovecotServer, smtp: Controller) -> dict[str, str]:
    return {
        "PBEM_ADDRESS": MODERATOR,
        "PBEM_IMAP_URL": dovecot.imap_url(),
        "PBEM_SMTP_URL": f"smtp://{smtp.hostname}:{smtp.port}",
    }


def test_a_named_config_file_that_is_missing_is_an_error(pbem: Pbem) -> None:
    ran = pbem("config", "check", env={"PBEM_CONFIG": "/nonexistent/pbem.toml"})
    assert ran.code == 1
    assert "FIX settings" in ran.out and "/nonexistent/pbem.toml" in ran.out


def test_imap_without_smtp_is_an_error(pbem: Pbem, dovecot: DovecotServer) -> None:
    ran = pbem(
        "config",
        "check",
        env={"PBEM_ADDRESS": MODERATOR, "PBEM_IMAP_URL": dovecot.imap_url()},
    )
    assert ran.code == 1
    assert "FIX mail servers" in ran.out and "PBEM_SMTP_URL is not" in ran.out


def test_smtp_without_imap_is_an_error(pbem: Pbem, smtp_server: SmtpServer) -> None:
    ran = pbem(
        "config", "check", env={"PBEM_ADDRESS": MODERATOR, "PBEM_SMTP_URL": smtp_server.url()}
    )
    assert ran.code == 1
    assert "FIX mail servers" in ran.out and "PBEM_IMAP_URL is not" in ran.out


def test_real_servers_with_the_default_address_is_an_error(
    pbem: Pbem, dovecot: DovecotServer, delivering_smtp: Controller
) -> None:
    env = servers(dovecot, delivering_smtp)
    del env["PBEM_ADDRESS"]
    ran = pbem("config", "check", env=env)
    assert ran.code == 1
    assert "FIX moderator address" in ran.out and "pbem@localhost" in ran.out


def test_the_local_maildir_alone_is_a_working_setup(pbem: Pbem) -> None:
    ran = pbem("config", "check")
    assert ran.code == 0, ran.out
    assert "FIX" not in ran.out


def test_probe_passes_when_plus_addressed_mail_arrives(
    pbem: Pbem, dovecot: DovecotServer, delivering_smtp: Controller
) -> None:
    ran = pbem("config", "check", "--probe", env=servers(dovecot, delivering_smtp))
    assert ran.code == 0, ran.out
    assert "OK  probe: moderator+probe-" in ran.out
    assert dovecot.messages("INBOX") == []  # found and deleted: the daemon never sees it


def test_probe_fails_when_plus_addressed_mail_does_not_arrive(
    pbem: Pbem, dovecot: DovecotServer, losing_smtp: Controller
) -> None:
    env = servers(dovecot, losing_smtp)
    ran = pbem("config", "check", "--probe", "--probe-timeout", "2", env=env)
    assert ran.code == 1
    assert "OK  IMAP" in ran.out and "OK  SMTP" in ran.out
    assert "FIX probe" in ran.out and "plus-addresses" in ran.out


def test_probe_finds_its_email_where_a_running_daemon_filed_it(
    pbem: Pbem, dovecot: DovecotServer
) -> None:
    # The daemon files what it has read (an Auto-Submitted probe included) under pbem/processed.
    with dovecot.connection() as client:
        assert client.create("pbem.processed")[0] == "OK"
    with smtp_into(dovecot, plus=True, folder="pbem.processed") as smtp:
        ran = pbem("config", "check", "--probe", "--probe-timeout", "5", env=servers(dovecot, smtp))
    assert ran.code == 0, ran.out
    assert dovecot.messages("pbem/processed") == []
