"""The IMAP intake against a real Dovecot: store first, then acknowledge; set poison aside."""

from __future__ import annotations

import re
import time

import pytest

from pbem.mail.config import parse_imap_url
from pbem.mail.handover import DECLINED
from pbem.mail.imap import ImapIntake, ImapOptions
from pbem.mail.imap_session import server_folder_name
from pbem.mail.transport import MemoryState, PollReport
from tests.mail.recording import IntakeFactory, RecordingStore, message_id, player_email
from tests.support.dovecot import DovecotServer, running_dovecot, skip_without_dovecot

pytestmark = pytest.mark.imap


def inbox_ids(dovecot: DovecotServer, folder: str = "INBOX") -> list[tuple[str, bool]]:
    return [(message_id(raw), seen) for raw, seen in dovecot.messages(folder)]


def test_stored_mail_is_marked_seen_and_moved_to_processed(
    dovecot: DovecotServer, recorder: RecordingStore, imap_intake: IntakeFactory
) -> None:
    for number in (1, 2):
        dovecot.append(player_email(number))

    report = imap_intake().poll()

    assert report == PollReport(stored=2)
    assert list(recorder.committed) == ["<order-1@example.org>", "<order-2@example.org>"]
    assert recorder.committed["<order-1@example.org>"] == player_email(1)
    assert inbox_ids(dovecot) == []
    assert inbox_ids(dovecot, "pbem/processed") == [
        ("<order-1@example.org>", True),
        ("<order-2@example.org>", True),
    ]


def test_mail_is_still_unseen_in_the_inbox_while_the_store_commits(
    dovecot: DovecotServer, recorder: RecordingStore, imap_intake: IntakeFactory
) -> None:
    dovecot.append(player_email(1))
    seen_by_others: list[list[tuple[str, bool]]] = []
    recorder.during_store = lambda raw, source: seen_by_others.append(inbox_ids(dovecot))

    imap_intake().poll()

    assert seen_by_others == [[("<order-1@example.org>", False)]]


def test_source_names_the_message_by_uidvalidity_and_uid(
    dovecot: DovecotServer, recorder: RecordingStore, imap_intake: IntakeFactory
) -> None:
    dovecot.append(player_email(1))
    imap_intake().poll()
    assert recorder.offered == [
        f"imap://moderator@127.0.0.1:{dovecot.port}/INBOX;UIDVALIDITY={dovecot.uidvalidity()}/;UID=1"
    ]


def test_mail_left_seen_in_the_inbox_is_taken_too(
    dovecot: DovecotServer, recorder: RecordingStore, imap_intake: IntakeFactory
) -> None:
    # A daemon killed between flagging a message seen and moving it leaves it like this.
    dovecot.append(player_email(1), seen=True)
    dovecot.append(player_email(2))

    assert imap_intake().poll().stored == 2
    assert list(recorder.committed) == ["<order-1@example.org>", "<order-2@example.org>"]
    assert inbox_ids(dovecot) == []


def test_many_messages_are_taken_in_batches_in_arrival_order(
    dovecot: DovecotServer, recorder: RecordingStore, imap_intake: IntakeFactory
) -> None:
    for number in range(1, 8):
        dovecot.append(player_email(number))

    assert imap_intake(batch_size=3).poll().stored == 7
    assert list(recorder.committed) == [f"<order-{n}@example.org>" for n in range(1, 8)]


def test_a_declined_message_stays_unseen_in_the_inbox(
    dovecot: DovecotServer, recorder: RecordingStore, imap_intake: IntakeFactory
) -> None:
    dovecot.append(player_email(1))
    recorder.script = [False]

    report = imap_intake().poll()

    assert report == PollReport(retry_later=1)
    assert inbox_ids(dovecot) == [("<order-1@example.org>", False)]
    assert inbox_ids(dovecot, "pbem/processed") == []


def test_a_message_failing_three_times_goes_to_failed_and_the_gm_is_told(
    dovecot: DovecotServer, recorder: RecordingStore, imap_intake: IntakeFactory
) -> None:
    dovecot.append(player_email(1))
    dovecot.append(player_email(2))
    # Message 1 is declined, raises, is declined; message 2 is stored on the first pass.
    recorder.script = [False, True, RuntimeError("database is down"), False]
    intake = imap_intake()

    reports = [intake.poll() for _ in range(3)]

    assert reports == [
        PollReport(stored=1, retry_later=1),
        PollReport(retry_later=1),
        PollReport(poisoned=1),
    ]
    assert [(message_id(raw), error) for raw, _, error in recorder.poisoned] == [
        ("<order-1@example.org>", DECLINED)
    ]
    assert inbox_ids(dovecot) == []
    assert inbox_ids(dovecot, "pbem/failed") == [("<order-1@example.org>", False)]
    assert inbox_ids(dovecot, "pbem/processed") == [("<order-2@example.org>", True)]
    assert intake.poll() == PollReport()


def test_the_error_of_the_last_attempt_is_reported(
    dovecot: DovecotServer, recorder: RecordingStore, imap_intake: IntakeFactory
) -> None:
    dovecot.append(player_email(1))
    recorder.script = [False, False, ValueError("no such game: sm-1")]
    intake = imap_intake()
    for _ in range(3):
        intake.poll()
    assert [error for _, _, error in recorder.poisoned] == ["ValueError: no such game: sm-1"]


def test_a_failed_message_waits_for_the_retry_delay(
    dovecot: DovecotServer, recorder: RecordingStore
) -> None:
    dovecot.append(player_email(1))
    recorder.script = [False]
    now = [0.0]
    handover = recorder.handover(retry_delay=60.0)
    handover.clock = lambda: now[0]
    intake = ImapIntake(parse_imap_url(dovecot.imap_url()), handover, MemoryState())

    first, too_soon = intake.poll(), intake.poll()
    now[0] = 61.0
    later = intake.poll()
    intake.close()

    assert (first.retry_later, too_soon, later.stored) == (1, PollReport(), 1)
    assert len(recorder.offered) == 2


def test_uidvalidity_is_remembered_in_the_state(
    dovecot: DovecotServer, imap_intake: IntakeFactory
) -> None:
    state = MemoryState()
    intake = imap_intake(state)
    intake.poll()
    assert state.get(intake.state_key) == str(dovecot.uidvalidity())


def test_after_a_uidvalidity_change_the_mail_still_in_the_folder_is_taken(
    dovecot: DovecotServer, recorder: RecordingStore, imap_intake: IntakeFactory
) -> None:
    dovecot.append(player_email(1))
    dovecot.append(player_email(2))
    recorder.script = [True, False]
    state = MemoryState()
    intake = imap_intake(state)
    intake.poll()
    # Message 1 was taken; message 2 failed once. The server loses its index and renumbers.
    old_validity = dovecot.uidvalidity()
    dovecot.append(player_email(3), seen=True)  # read by a person: still the moderator's work
    dovecot.renumber_inbox()

    report = intake.poll()

    assert dovecot.uidvalidity() != old_validity
    assert state.get(intake.state_key) == str(dovecot.uidvalidity())
    assert report.stored == 2
    assert list(recorder.committed) == [
        "<order-1@example.org>",
        "<order-2@example.org>",
        "<order-3@example.org>",
    ]
    assert recorder.repeats == 0
    assert all(
        f"UIDVALIDITY={dovecot.uidvalidity()}/" in source for source in recorder.offered[-2:]
    )


def test_failure_counts_start_over_when_uids_are_renumbered(
    dovecot: DovecotServer, recorder: RecordingStore, imap_intake: IntakeFactory
) -> None:
    dovecot.append(player_email(1))
    recorder.script = [False, False, False, False]
    intake = imap_intake()
    intake.poll()
    intake.poll()
    dovecot.renumber_inbox()

    intake.poll()  # fails a third time in all, but only the first under the new numbering
    intake.poll()

    assert recorder.poisoned == []
    assert inbox_ids(dovecot) == [("<order-1@example.org>", False)]


def test_wrong_password_is_an_error_a_person_can_fix_and_waits_a_minute(
    dovecot: DovecotServer,
) -> None:
    wrong = parse_imap_url(f"imap://moderator:wrong@{dovecot.host}:{dovecot.port}/INBOX?insecure=1")
    intake = ImapIntake(wrong, RecordingStore().handover(), MemoryState())
    report = intake.poll()
    again = intake.poll()  # a moment later: no second login so soon

    assert report.needs_person and report.stored == 0
    assert re.search(r"refused the login.*PBEM_IMAP_URL", report.error or "")
    assert report.retry_in is not None and 55 < report.retry_in <= 60
    assert again.error == report.error and again.needs_person
    assert failed_logins(dovecot) == 1


def failed_logins(dovecot: DovecotServer) -> int:
    """Dovecot logs a failed login when the client disconnects: give it a moment to."""
    deadline = time.monotonic() + 2.0
    while "auth failed" not in dovecot.log_text() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.2)  # and any second one as long
    return dovecot.log_text().count("auth failed")


def test_tls_to_a_server_without_it_is_an_error_a_person_can_fix(dovecot: DovecotServer) -> None:
    plain = parse_imap_url(f"imaps://moderator:x@{dovecot.host}:{dovecot.port}/INBOX")
    report = ImapIntake(plain, RecordingStore().handover(), MemoryState()).poll()
    assert report.needs_person and report.retry_in is not None and report.retry_in > 55


def test_a_missing_folder_is_an_error_a_person_can_fix(
    dovecot: DovecotServer, recorder: RecordingStore
) -> None:
    config = parse_imap_url(dovecot.imap_url(folder="Orders"))
    intake = ImapIntake(config, recorder.handover(), MemoryState())
    report = intake.poll()
    assert report.needs_person
    assert "'Orders' does not exist" in (report.error or "")


@pytest.mark.parametrize("capabilities", ["IMAP4rev1 NAMESPACE", "IMAP4rev1 UIDPLUS"])
def test_a_server_without_move_or_idle_still_gets_mail_stored_and_acknowledged(
    recorder: RecordingStore, capabilities: str
) -> None:
    skip_without_dovecot()
    with running_dovecot(capabilities=capabilities) as old_server:
        for number in (1, 2):
            old_server.append(player_email(number))
        options = ImapOptions(poll_interval=0.05)
        intake = ImapIntake(
            parse_imap_url(old_server.imap_url()), recorder.handover(), MemoryState(), options
        )

        report = intake.poll()
        old_server.append(player_email(3))
        woke = intake.wait_for_mail(timeout=5.0)
        intake.close()

        assert report == PollReport(stored=2) and woke
        assert inbox_ids(old_server) == [("<order-3@example.org>", False)]
        assert inbox_ids(old_server, "pbem/processed") == [
            ("<order-1@example.org>", True),
            ("<order-2@example.org>", True),
        ]


@pytest.mark.parametrize(
    ("name", "prefix", "delimiter", "spelled"),
    [
        ("pbem/processed", "", ".", "pbem.processed"),
        ("pbem/processed", "", "/", "pbem/processed"),
        ("pbem/processed", "INBOX.", ".", "INBOX.pbem.processed"),
        ("INBOX/pbem", "INBOX.", ".", "INBOX.pbem"),
        ("inbox", "INBOX.", ".", "INBOX"),
    ],
)
def test_folder_names_follow_the_servers_namespace(
    name: str, prefix: str, delimiter: str, spelled: str
) -> None:
    assert server_folder_name(name, prefix, delimiter) == spelled
