"""The embedded Maildir transport: store-then-ack on the local inbox, and the sent folder."""

from __future__ import annotations

import email
import mailbox
import threading
import time
from pathlib import Path

import pytest

from pbem.mail.errors import MailError
from pbem.mail.handover import DECLINED
from pbem.mail.maildir import FAILED_FOLDER, PROCESSED_FOLDER, MaildirIntake, MaildirSender, deliver
from pbem.mail.transport import PollReport, SendResult
from tests.mail.recording import RecordingStore, message_id, player_email

PROMPT = 2.0


def folder(root: Path, name: str | None = None) -> mailbox.Maildir:
    inbox = mailbox.Maildir(root / "inbox", create=False)
    return inbox if name is None else inbox.get_folder(name)


def contents(box: mailbox.Maildir) -> list[tuple[str, str, str]]:
    """(Message-ID, subdir, flags) of each message, by Message-ID."""
    found = [
        (str(message["Message-ID"]), message.get_subdir(), message.get_flags()) for message in box
    ]
    return sorted(found)


@pytest.fixture
def intake(tmp_path: Path, recorder: RecordingStore) -> MaildirIntake:
    return MaildirIntake(tmp_path, recorder.handover(), poll_interval=0.05)


def test_stored_mail_moves_to_processed_flagged_seen(
    tmp_path: Path, recorder: RecordingStore, intake: MaildirIntake
) -> None:
    for number in (1, 2):
        deliver(tmp_path, player_email(number))

    assert intake.poll() == PollReport(stored=2)
    assert list(recorder.committed) == ["<order-1@example.org>", "<order-2@example.org>"]
    assert recorder.committed["<order-1@example.org>"] == player_email(1)
    assert contents(folder(tmp_path)) == []
    assert contents(folder(tmp_path, PROCESSED_FOLDER)) == [
        ("<order-1@example.org>", "cur", "S"),
        ("<order-2@example.org>", "cur", "S"),
    ]


def test_mail_is_still_new_in_the_inbox_while_the_store_commits(
    tmp_path: Path, recorder: RecordingStore, intake: MaildirIntake
) -> None:
    deliver(tmp_path, player_email(1))
    seen_meanwhile: list[list[tuple[str, str, str]]] = []
    recorder.during_store = lambda raw, source: seen_meanwhile.append(contents(folder(tmp_path)))

    intake.poll()

    assert seen_meanwhile == [[("<order-1@example.org>", "new", "")]]


def test_seen_mail_in_the_inbox_is_left_alone(
    tmp_path: Path, recorder: RecordingStore, intake: MaildirIntake
) -> None:
    read = mailbox.MaildirMessage(player_email(1))
    read.add_flag("S")
    read.set_subdir("cur")
    mailbox.Maildir(tmp_path / "inbox").add(read)

    assert intake.poll() == PollReport()
    assert recorder.offered == []


def test_a_declined_message_stays_new_then_goes_to_failed_after_three_tries(
    tmp_path: Path, recorder: RecordingStore, intake: MaildirIntake
) -> None:
    deliver(tmp_path, player_email(1))
    recorder.script = [False, OSError("disk full"), False]

    reports = [intake.poll() for _ in range(3)]

    assert reports == [PollReport(retry_later=1), PollReport(retry_later=1), PollReport(poisoned=1)]
    assert [(message_id(raw), error) for raw, _, error in recorder.poisoned] == [
        ("<order-1@example.org>", DECLINED)
    ]
    assert contents(folder(tmp_path)) == []
    assert contents(folder(tmp_path, FAILED_FOLDER)) == [("<order-1@example.org>", "new", "")]
    assert intake.poll() == PollReport()


def test_source_names_the_inbox_file(
    tmp_path: Path, recorder: RecordingStore, intake: MaildirIntake
) -> None:
    key = deliver(tmp_path, player_email(1))
    intake.poll()
    assert recorder.offered == [f"maildir:{tmp_path / 'inbox'}/{key}"]


def test_wait_wakes_when_mail_is_delivered(tmp_path: Path, intake: MaildirIntake) -> None:
    started = time.monotonic()
    timer = threading.Timer(0.2, deliver, args=(tmp_path, player_email(1)))
    timer.start()
    woke = intake.wait_for_mail(timeout=10.0)
    timer.join()
    assert woke and time.monotonic() - started < PROMPT


def test_wait_returns_false_when_no_mail_comes(intake: MaildirIntake) -> None:
    assert not intake.wait_for_mail(timeout=0.2)


def test_sent_mail_is_filed_one_message_per_file_with_its_envelope(tmp_path: Path) -> None:
    sender = MaildirSender(tmp_path)
    raw = b"From: moderator@pbem.example.org\r\nSubject: [sm-1] Turn 2\r\n\r\nYour move.\r\n"

    result = sender.send(
        raw, ["alice@example.org", "bob@example.org"], "moderator@pbem.example.org"
    )
    sender.send(raw, ["carol@example.org"], "moderator@pbem.example.org")
    sender.close()

    assert result == SendResult(delivered=("alice@example.org", "bob@example.org"))
    files = sorted((tmp_path / "sent" / "new").iterdir())
    assert len(files) == 2
    envelopes = sorted(
        email.message_from_bytes(path.read_bytes())["X-Pbem-Envelope-To"] for path in files
    )
    assert envelopes == ["alice@example.org, bob@example.org", "carol@example.org"]
    first = email.message_from_bytes(files[0].read_bytes())
    assert first["Return-Path"] == "<moderator@pbem.example.org>"
    assert first["Subject"] == "[sm-1] Turn 2"


def test_an_inbox_made_by_hand_with_only_new_is_completed_and_read(
    tmp_path: Path, recorder: RecordingStore
) -> None:
    # Play-testing: `mkdir -p inbox/new`, mail dropped in, and the first poll's read of the
    # missing cur/ ended `pbem run --once` in a FileNotFoundError traceback.
    (tmp_path / "inbox" / "new").mkdir(parents=True)
    (tmp_path / "inbox" / ".pbem.processed" / "new").mkdir(parents=True)
    (tmp_path / "inbox" / "new" / "order-1.eml").write_bytes(player_email(1))

    intake = MaildirIntake(tmp_path, recorder.handover())

    assert intake.poll() == PollReport(stored=1)
    assert {part.name for part in (tmp_path / "inbox").iterdir()} >= {"new", "cur", "tmp"}
    assert contents(folder(tmp_path, PROCESSED_FOLDER)) == [("<order-1@example.org>", "cur", "S")]


def test_an_inbox_that_is_not_a_folder_is_one_mail_error_naming_it(
    tmp_path: Path, recorder: RecordingStore
) -> None:
    (tmp_path / "inbox").write_text("not a Maildir")

    with pytest.raises(MailError) as refused:
        MaildirIntake(tmp_path, recorder.handover())

    message = str(refused.value)
    assert f"cannot use {tmp_path / 'inbox'} as a Maildir" in message
    assert "new/, cur/ and tmp/" in message and "PBEM_MAILDIR" in message


def test_mail_to_a_computer_player_is_filed_marked_as_never_sent(tmp_path: Path) -> None:
    # Play-testing: a computer player's mail in sent/ read as if it had gone to bots.invalid.
    sender = MaildirSender(tmp_path)
    raw = b"From: moderator@pbem.example.org\r\nSubject: [sm-1] Turn 2\r\n\r\nYour move.\r\n"

    sender.send(raw, ["robo@bots.invalid"], "moderator@pbem.example.org")
    sender.send(raw, ["ann@example.org"], "moderator@pbem.example.org")
    sender.close()

    filed = [
        email.message_from_bytes(path.read_bytes())
        for path in (tmp_path / "sent" / "new").iterdir()
    ]
    marks = {str(message["X-Pbem-Envelope-To"]): message["X-Pbem-Not-Sent"] for message in filed}
    assert marks["ann@example.org"] is None
    assert "no mail reaches a .invalid address" in str(marks["robo@bots.invalid"])
