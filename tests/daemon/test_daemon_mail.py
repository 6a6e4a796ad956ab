"""The daemon against real servers: players get their mail, replies are answered, nothing lost."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from email.utils import make_msgid

from sqlmodel import Session, col, select

from pbem.daemon import Daemon
from pbem.moderator.desk import Desk
from pbem.moderator.start import GameRequest, PlayerSpec, start_game
from pbem.settings import Settings
from pbem.store import OutboxRow, last_history, session_scope
from tests.support.dovecot import DovecotServer
from tests.support.smtpd import ReceivedMail, SmtpServer

PLAYERS = ("ann@example.org", "bo@example.org", "cy@example.org")


def start_bigtime(daemon: Daemon) -> str:
    request = GameRequest(game="bigtime", players=tuple(PlayerSpec(p) for p in PLAYERS), seed=7)
    with session_scope(daemon.engine) as session:
        return start_game(Desk(session, daemon.settings), request).id


def reply_from(player: str, got: bytes, body: str) -> bytes:
    """What a mail client makes of pressing reply on `got` and writing `body`."""
    headers = BytesHeaderParser().parsebytes(got)
    message = EmailMessage()
    message["From"] = player
    message["To"] = headers["Reply-To"]
    message["Subject"] = f"Re: {headers['Subject']}"
    message["Message-ID"] = make_msgid(domain="test.invalid")
    message["In-Reply-To"] = headers["Message-ID"]
    message.set_content(body)
    return message.as_bytes()


def pending_count(daemon: Daemon) -> int:
    with Session(daemon.engine) as session:
        statement = select(OutboxRow).where(col(OutboxRow.status) == "pending")
        return len(session.exec(statement).all())


def recipients(mails: list[ReceivedMail]) -> list[str]:
    return sorted(address for mail in mails for address in mail.recipients)


def test_cycle_mails_every_player_and_answers_a_reply_once(
    server_settings: Settings,
    make_daemon: Callable[[Settings], Daemon],
    dovecot: DovecotServer,
    smtp_server: SmtpServer,
) -> None:
    daemon = make_daemon(server_settings)
    start_bigtime(daemon)
    first = daemon.cycle()
    received = smtp_server.wait_for(first.outbox.sent)
    assert set(recipients(received)) == set(PLAYERS)
    assert len(received) == first.outbox.sent and pending_count(daemon) == 0

    ann_mail = next(mail for mail in received if mail.recipients == (PLAYERS[0],))
    dovecot.append(reply_from(PLAYERS[0], ann_mail.raw, "HELP"))
    answer = daemon.cycle()
    assert answer.intake.stored == 1 and answer.outbox.sent >= 1
    after = smtp_server.wait_for(len(received) + answer.outbox.sent)
    assert recipients(after[len(received) :]) == [PLAYERS[0]] * answer.outbox.sent
    assert [seen for _raw, seen in dovecot.messages("INBOX")] == []

    quiet = daemon.cycle()
    assert (quiet.intake.stored, quiet.outbox.sent) == (0, 0)
    assert len(smtp_server.received()) == len(after)


def test_mail_waits_while_the_smtp_server_is_down_and_all_goes_out_after(
    server_settings: Settings,
    make_daemon: Callable[[Settings], Daemon],
    smtp_server: SmtpServer,
) -> None:
    daemon = make_daemon(server_settings)
    smtp_server.stop()
    start_bigtime(daemon)
    queued = pending_count(daemon)
    down = daemon.cycle()
    assert down.outbox.sent == 0 and down.outbox.deferred == 1
    assert pending_count(daemon) == queued

    smtp_server.start()
    # The emails not yet tried go at once; the one that failed waits for its retry time.
    assert daemon.cycle().outbox.sent == queued - 1
    assert pending_count(daemon) == 1
    start = daemon.clock()
    daemon.clock = lambda: start + timedelta(hours=2)
    assert daemon.send_outbox().sent == 1
    assert pending_count(daemon) == 0
    assert set(recipients(smtp_server.wait_for(queued))) == set(PLAYERS)


def test_a_failed_send_is_retried_later_not_lost(
    server_settings: Settings,
    make_daemon: Callable[[Settings], Daemon],
    smtp_server: SmtpServer,
) -> None:
    daemon = make_daemon(server_settings)
    smtp_server.handler.reply_to(PLAYERS[1], "451 try again later")
    start_bigtime(daemon)
    report = daemon.send_outbox()
    assert report.deferred >= 1
    with Session(daemon.engine) as session:
        bo_rows = session.exec(
            select(OutboxRow).where(col(OutboxRow.to_address) == PLAYERS[1])
        ).all()
    assert all(row.status == "pending" and row.attempts == 1 for row in bo_rows)
    first_retry: datetime = min(row.next_attempt_at for row in bo_rows)
    assert first_retry > daemon.clock()

    smtp_server.handler.reply_to(PLAYERS[1], "250 OK")
    daemon.clock = lambda: first_retry + timedelta(seconds=1)
    daemon.send_outbox()
    assert pending_count(daemon) == 0


def test_an_address_the_smtp_server_refuses_for_good_is_in_the_history_and_the_gm_told(
    server_settings: Settings,
    make_daemon: Callable[[Settings], Daemon],
    smtp_server: SmtpServer,
) -> None:
    gm = "gm@example.org"
    daemon = make_daemon(replace(server_settings, gm_address=gm))
    smtp_server.handler.reply_to(PLAYERS[1], "550 5.1.1 no such user")
    game_id = start_bigtime(daemon)
    assert daemon.send_outbox().failed == 1
    with Session(daemon.engine) as session:
        entry = last_history(session, game_id, 1)[-1]
    assert entry.kind == "system" and PLAYERS[1] in entry.summary and "550" in entry.summary
    with Session(daemon.engine) as session:
        refused = session.exec(
            select(OutboxRow).where(col(OutboxRow.to_address) == PLAYERS[1])
        ).one()
    # `pbem outbox` counts the one try it had (play-testing: "tries 0" on mail refused at once).
    assert (refused.status, refused.attempts) == ("failed", 1)
    daemon.send_outbox()
    told = [mail for mail in smtp_server.received() if gm in mail.recipients]
    assert len(told) == 1 and PLAYERS[1].encode() in told[0].raw


def test_a_bounce_report_for_a_players_address_is_recorded_not_answered(
    server_settings: Settings,
    make_daemon: Callable[[Settings], Daemon],
    dovecot: DovecotServer,
    smtp_server: SmtpServer,
) -> None:
    gm = "gm@example.org"
    daemon = make_daemon(replace(server_settings, gm_address=gm))
    game_id = start_bigtime(daemon)
    daemon.cycle()
    [to_bo] = [mail for mail in smtp_server.received() if PLAYERS[1] in mail.recipients]
    original = BytesHeaderParser().parsebytes(to_bo.raw)["Message-ID"]
    dovecot.append(dsn(PLAYERS[1], original, server_settings.address))
    sent_before = len(smtp_server.received())
    daemon.cycle()
    with Session(daemon.engine) as session:
        entry = last_history(session, game_id, 1)[-1]
    assert PLAYERS[1] in entry.summary and "5.1.1" in entry.summary
    new = smtp_server.received()[sent_before:]
    assert [mail.recipients for mail in new] == [(gm,)]  # the GM is told; the bounce gets no reply


def dsn(recipient: str, original_id: str, moderator: str) -> bytes:
    return (
        f"From: MAILER-DAEMON@mx.example.org\r\nTo: {moderator}\r\nReturn-Path: <>\r\n"
        f"Subject: Undelivered Mail Returned to Sender\r\n"
        f"Message-ID: <dsn-{recipient}@mx.example.org>\r\nMIME-Version: 1.0\r\n"
        'Content-Type: multipart/report; report-type=delivery-status; boundary="B"\r\n\r\n'
        "--B\r\nContent-Type: text/plain\r\n\r\nYour message could not be delivered.\r\n"
        "--B\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.example.org\r\n"
        f"\r\nFinal-Recipient: rfc822; {recipient}\r\nAction: failed\r\nStatus: 5.1.1\r\n"
        "Diagnostic-Code: smtp; 550 5.1.1 user unknown\r\n"
        "--B\r\nContent-Type: text/rfc822-headers\r\n\r\n"
        f"Message-ID: {original_id}\r\nSubject: status\r\n"
        "--B--\r\n"
    ).encode()
