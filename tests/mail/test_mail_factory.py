"""Which transports the settings choose: servers where URLs are given, else the local Maildir."""

from __future__ import annotations

from pathlib import Path

from pbem.mail.config import MailSettings, parse_imap_url, parse_smtp_url
from pbem.mail.factory import open_intake, open_sender
from pbem.mail.imap import ImapIntake
from pbem.mail.maildir import MaildirIntake, MaildirSender
from pbem.mail.smtp import SmtpSender
from pbem.mail.transport import MemoryState
from tests.mail.recording import RecordingStore


def test_without_urls_both_directions_use_the_maildir(tmp_path: Path) -> None:
    settings = MailSettings(imap=None, smtp=None, maildir=tmp_path)
    recorder = RecordingStore()
    intake = open_intake(settings, recorder.store, recorder.on_poison, MemoryState())
    assert isinstance(intake, MaildirIntake) and intake.root == tmp_path
    assert isinstance(open_sender(settings), MaildirSender)
    assert (tmp_path / "inbox" / "new").is_dir() and (tmp_path / "sent" / "new").is_dir()


def test_urls_choose_the_servers_without_connecting(tmp_path: Path) -> None:
    settings = MailSettings(
        imap=parse_imap_url("imap://u:p@127.0.0.1:1/INBOX"),
        smtp=parse_smtp_url("smtp://127.0.0.1:1"),
        maildir=tmp_path,
    )
    recorder = RecordingStore()
    intake = open_intake(settings, recorder.store, recorder.on_poison, MemoryState())
    assert isinstance(intake, ImapIntake) and not intake.connected
    assert isinstance(open_sender(settings), SmtpSender)
