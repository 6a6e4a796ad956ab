"""TLS against real servers with a self-signed CA given by PBEM_CA_FILE: IMAPS, IMAP STARTTLS,
SMTPS, SMTP STARTTLS; plain URLs upgrading when the server offers it; a login never sent in
clear text without ?insecure=1; a certificate from the wrong CA refused."""

from __future__ import annotations

import re
import ssl
from pathlib import Path

import pytest

from pbem.mail.config import MailSettings
from pbem.mail.imap import ImapIntake
from pbem.mail.imap_session import open_client
from pbem.mail.smtp import SmtpSender
from pbem.mail.transport import MemoryState
from tests.mail.recording import RecordingStore, player_email
from tests.support.certs import SelfSignedCa
from tests.support.dovecot import DovecotServer
from tests.support.smtpd import running_smtpd

MODERATOR = "moderator@pbem.example.org"
STATUS_EMAIL = b"From: moderator@pbem.example.org\nSubject: status\n\nYour turn.\n"
CREDENTIALS = {"gm": "s3cret"}


def mail_settings(ca_file: Path, **urls: str) -> MailSettings:
    """Read as the daemon reads them: the URLs and PBEM_CA_FILE from its environment."""
    return MailSettings.from_env(
        {"PBEM_CA_FILE": str(ca_file), **{f"PBEM_{k.upper()}_URL": v for k, v in urls.items()}}
    )


def imap_intake(url: str, ca_file: Path, recorder: RecordingStore) -> ImapIntake:
    config = mail_settings(ca_file, imap=url).imap
    assert config is not None
    return ImapIntake(config, recorder.handover(), MemoryState())


def logins(dovecot: DovecotServer) -> list[str]:
    return [line for line in dovecot.log_text().splitlines() if "imap-login: Info: Login:" in line]


@pytest.mark.parametrize("scheme", ["imaps", "imap"])
def test_imap_over_tls_with_the_ca_file_takes_the_mail(
    scheme: str, tls_dovecot: DovecotServer, test_ca: SelfSignedCa, recorder: RecordingStore
) -> None:
    """imaps:// to the TLS port; imap:// to a server offering STARTTLS upgrades before login."""
    tls_dovecot.append(player_email(1))
    intake = imap_intake(tls_dovecot.tls_url(scheme=scheme), test_ca.ca_file, recorder)
    try:
        assert intake.poll().stored == 1
    finally:
        intake.close()
    assert list(recorder.committed) == ["<order-1@example.org>"]
    # Dovecot notes "TLS" on a login made over TLS ("secured" for clear text on 127.0.0.1).
    assert [", TLS," in line for line in logins(tls_dovecot)][-1:] == [True]


def test_imap_starttls_option_upgrades_and_the_socket_is_tls(
    tls_dovecot: DovecotServer, test_ca: SelfSignedCa
) -> None:
    config = mail_settings(
        test_ca.ca_file, imap=tls_dovecot.tls_url(scheme="imap") + "?starttls=1"
    ).imap
    assert config is not None
    client = open_client(config, timeout=5.0)
    try:
        assert isinstance(client.socket(), ssl.SSLSocket)
        assert client.folder_exists("INBOX")
    finally:
        client.logout()


def test_imap_without_tls_on_offer_sends_no_password(
    dovecot: DovecotServer, test_ca: SelfSignedCa, recorder: RecordingStore
) -> None:
    """A server offering no STARTTLS: the intake refuses to log in unless ?insecure=1."""
    plain = dovecot.imap_url().removesuffix("?insecure=1")
    intake = imap_intake(plain, test_ca.ca_file, recorder)
    report = intake.poll()
    assert report.needs_person and re.search(r"offers no STARTTLS.*insecure=1", report.error or "")
    starttls = imap_intake(plain + "?starttls=1", test_ca.ca_file, recorder)
    report = starttls.poll()
    assert report.needs_person and re.search(
        r"starttls=1 is set but the server does not offer", report.error or ""
    )
    assert logins(dovecot) == []


@pytest.mark.parametrize("scheme", ["imaps", "imap"])
def test_a_certificate_from_the_wrong_ca_is_refused_by_the_intake(
    scheme: str, tls_dovecot: DovecotServer, wrong_ca: Path, recorder: RecordingStore
) -> None:
    tls_dovecot.append(player_email(1))
    before = logins(tls_dovecot)
    intake = imap_intake(tls_dovecot.tls_url(scheme=scheme), wrong_ca, recorder)
    report = intake.poll()
    assert report.needs_person and re.search(
        r"does not verify against the CA file .*PBEM_CA_FILE", report.error or ""
    )
    assert recorder.committed == {} and logins(tls_dovecot) == before


def test_the_system_store_does_not_trust_a_private_ca(
    tls_dovecot: DovecotServer, recorder: RecordingStore
) -> None:
    """Without PBEM_CA_FILE the system's CAs decide, and they never signed the test server."""
    config = MailSettings.from_env({"PBEM_IMAP_URL": tls_dovecot.tls_url()}).imap
    assert config is not None
    intake = ImapIntake(config, recorder.handover(), MemoryState())
    report = intake.poll()
    assert report.needs_person and re.search("the system's CA store", report.error or "")


def smtp_sender(url: str, ca_file: Path) -> SmtpSender:
    config = mail_settings(ca_file, smtp=url).smtp
    assert config is not None
    return SmtpSender(config, timeout=5.0)


@pytest.mark.parametrize(
    ("implicit", "option"),
    [(True, ""), (False, "?starttls=1"), (False, "")],
    ids=["smtps", "starttls=1", "starttls-when-offered"],
)
def test_smtp_over_tls_with_the_ca_file_logs_in_and_delivers(
    implicit: bool, option: str, test_ca: SelfSignedCa
) -> None:
    """The STARTTLS server takes a login only after TLS, so the plain URL must have upgraded."""
    with running_smtpd(CREDENTIALS, tls=test_ca, implicit_tls=implicit) as server:
        scheme = "smtps" if implicit else "smtp"
        sender = smtp_sender(
            f"{scheme}://gm:s3cret@{server.host}:{server.port}{option}", test_ca.ca_file
        )
        try:
            result = sender.send(STATUS_EMAIL, ["alice@example.org"], MODERATOR)
        finally:
            sender.close()
        assert result.ok, result
        assert [mail.recipients for mail in server.wait_for(1)] == [("alice@example.org",)]


@pytest.mark.parametrize("implicit", [True, False], ids=["smtps", "starttls"])
def test_a_certificate_from_the_wrong_ca_is_refused_by_the_sender(
    implicit: bool, test_ca: SelfSignedCa, wrong_ca: Path
) -> None:
    with running_smtpd(CREDENTIALS, tls=test_ca, implicit_tls=implicit) as server:
        scheme = "smtps" if implicit else "smtp"
        sender = smtp_sender(f"{scheme}://gm:s3cret@{server.host}:{server.port}", wrong_ca)
        result = sender.send(STATUS_EMAIL, ["alice@example.org"], MODERATOR)
        assert not result.delivered and result.permanent == ()
        assert "CERTIFICATE_VERIFY_FAILED" in (result.blocked or "")
        assert server.received() == []


def test_smtp_without_tls_on_offer_sends_no_password(test_ca: SelfSignedCa) -> None:
    with running_smtpd(CREDENTIALS) as server:
        plain = server.url("gm").removesuffix("?insecure=1")
        result = smtp_sender(plain, test_ca.ca_file).send(
            STATUS_EMAIL, ["alice@example.org"], MODERATOR
        )
        assert "pbem will not send a login in clear text" in (result.blocked or "")
        demanded = smtp_sender(plain + "?starttls=1", test_ca.ca_file).send(
            STATUS_EMAIL, ["alice@example.org"], MODERATOR
        )
        assert "does not offer STARTTLS" in (demanded.blocked or "")
        assert server.received() == []
        # Allowed in so many words, the same server takes the login and the mail.
        allowed = smtp_sender(server.url("gm"), test_ca.ca_file)
        assert allowed.send(STATUS_EMAIL, ["alice@example.org"], MODERATOR).ok
        allowed.close()
        assert [mail.recipients for mail in server.wait_for(1)] == [("alice@example.org",)]
