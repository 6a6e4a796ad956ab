"""Sending through a real SMTP server (aiosmtpd): delivered, retry later, or refused for good."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbem.mail.config import parse_smtp_url
from pbem.mail.smtp import SmtpSender, crlf_lines
from pbem.mail.smtp_session import dot_stuffed
from pbem.mail.transport import RecipientFailure, SendResult
from tests.support.smtpd import SmtpServer, running_smtpd

MODERATOR = "moderator@pbem.example.org"
STATUS_EMAIL = (
    b"From: moderator@pbem.example.org\nTo: alice@example.org\n"
    b"Subject: [sm-1] Turn 2\nMessage-ID: <sm-1.2@pbem.example.org>\n\nYour move.\n"
)


@pytest.fixture
def sender(smtp_server: SmtpServer) -> Iterator[SmtpSender]:
    smtp = SmtpSender(parse_smtp_url(smtp_server.url()), timeout=5.0)
    yield smtp
    smtp.close()


def test_a_message_is_delivered_to_every_recipient(
    smtp_server: SmtpServer, sender: SmtpSender
) -> None:
    result = sender.send(STATUS_EMAIL, ["alice@example.org", "bob@example.org"], MODERATOR)

    assert result == SendResult(delivered=("alice@example.org", "bob@example.org"))
    [mail] = smtp_server.wait_for(1)
    assert (mail.sender, mail.recipients) == (MODERATOR, ("alice@example.org", "bob@example.org"))
    assert mail.raw == STATUS_EMAIL.replace(b"\n", b"\r\n")


def test_one_connection_serves_a_batch(smtp_server: SmtpServer, sender: SmtpSender) -> None:
    for _ in range(3):
        assert sender.send(STATUS_EMAIL, ["alice@example.org"], MODERATOR).ok
    assert len({mail.peer for mail in smtp_server.wait_for(3)}) == 1


def test_server_down_is_a_temporary_failure_then_delivery_works_once_it_is_back(
    smtp_server: SmtpServer, sender: SmtpSender
) -> None:
    assert sender.send(STATUS_EMAIL, ["alice@example.org"], MODERATOR).ok
    smtp_server.stop()

    down = sender.send(STATUS_EMAIL, ["alice@example.org"], MODERATOR)
    smtp_server.start()
    back = sender.send(STATUS_EMAIL, ["alice@example.org"], MODERATOR)

    assert [failure.address for failure in down.temporary] == ["alice@example.org"]
    assert down.delivered == () and down.permanent == ()
    assert back == SendResult(delivered=("alice@example.org",))
    assert len(smtp_server.wait_for(2)) == 2


def test_no_server_at_all_is_a_temporary_failure(smtp_server: SmtpServer) -> None:
    smtp_server.stop()
    result = SmtpSender(parse_smtp_url(smtp_server.url()), timeout=2.0).send(
        STATUS_EMAIL, ["alice@example.org"], MODERATOR
    )
    assert not result.ok and len(result.temporary) == 1 and result.temporary[0].code == 0


def test_a_5xx_recipient_fails_for_good_and_the_others_get_the_message(
    smtp_server: SmtpServer, sender: SmtpSender
) -> None:
    smtp_server.handler.reply_to("ghost@example.org", "550 5.1.1 No such user")

    result = sender.send(STATUS_EMAIL, ["alice@example.org", "ghost@example.org"], MODERATOR)

    assert result == SendResult(
        delivered=("alice@example.org",),
        permanent=(RecipientFailure("ghost@example.org", 550, "5.1.1 No such user"),),
    )
    assert smtp_server.wait_for(1)[0].recipients == ("alice@example.org",)


def test_a_4xx_recipient_is_retried_later(smtp_server: SmtpServer, sender: SmtpSender) -> None:
    smtp_server.handler.reply_to("bob@example.org", "450 4.2.1 Mailbox busy, try later")

    result = sender.send(STATUS_EMAIL, ["bob@example.org"], MODERATOR)

    assert result == SendResult(
        temporary=(RecipientFailure("bob@example.org", 450, "4.2.1 Mailbox busy, try later"),)
    )
    assert sender.send(STATUS_EMAIL, ["alice@example.org"], MODERATOR).ok


def test_credentials_in_the_url_log_in() -> None:
    with running_smtpd(credentials={"gm": "s3cret"}) as server:
        smtp = SmtpSender(parse_smtp_url(server.url("gm")), timeout=5.0)
        result = smtp.send(STATUS_EMAIL, ["alice@example.org"], MODERATOR)
        smtp.close()
        assert result.ok and len(server.wait_for(1)) == 1


def test_a_refused_login_blocks_sending_and_is_not_the_recipients_fault() -> None:
    with running_smtpd(credentials={"gm": "s3cret"}) as server:
        url = f"smtp://gm:wrong@{server.host}:{server.port}?insecure=1"
        result = SmtpSender(parse_smtp_url(url), timeout=5.0).send(
            STATUS_EMAIL, ["alice@example.org"], MODERATOR
        )
        assert result.permanent == () and result.temporary == () and not result.ok
        assert result.blocked is not None and "535" in result.blocked
        assert server.received() == []


def test_sending_needs_a_recipient(sender: SmtpSender) -> None:
    with pytest.raises(ValueError, match="recipient"):
        sender.send(STATUS_EMAIL, [], MODERATOR)


def test_a_connection_the_server_dropped_between_two_sends_is_opened_anew_at_once(
    smtp_server: SmtpServer, sender: SmtpSender
) -> None:
    assert sender.send(STATUS_EMAIL, ["alice@example.org"], MODERATOR).ok
    smtp_server.stop()  # the server restarts between two emails of one batch
    smtp_server.start()

    assert sender.send(STATUS_EMAIL, ["alice@example.org"], MODERATOR).ok
    assert len({mail.peer for mail in smtp_server.wait_for(2)}) == 2


@pytest.mark.parametrize(
    "reply",
    [
        "550 5.4.5 Daily user sending limit exceeded",
        "452 4.5.3 Too many recipients this hour",
        "554 5.7.0 Sending rate limit exceeded for this account",
    ],
)
def test_a_sending_limit_answer_is_throttled_not_failed(
    smtp_server: SmtpServer, sender: SmtpSender, reply: str
) -> None:
    smtp_server.handler.reply_to("alice@example.org", reply)

    result = sender.send(STATUS_EMAIL, ["alice@example.org"], MODERATOR)

    code, text = reply.split(" ", 1)
    assert result == SendResult(throttled=(RecipientFailure("alice@example.org", int(code), text),))
    assert smtp_server.received() == []


@pytest.mark.parametrize(
    "url", ["smtps://{host}:{port}", "smtp://{host}:{port}?starttls=1"], ids=["tls", "starttls"]
)
def test_tls_the_server_does_not_speak_blocks_sending(smtp_server: SmtpServer, url: str) -> None:
    config = parse_smtp_url(url.format(host=smtp_server.host, port=smtp_server.port))
    result = SmtpSender(config, timeout=5.0).send(STATUS_EMAIL, ["alice@example.org"], MODERATOR)
    assert result.blocked is not None and result.temporary == () and result.permanent == ()
    assert smtp_server.received() == []


@pytest.mark.parametrize(
    ("raw", "wire"),
    [
        (b"a\nb\n", b"a\r\nb\r\n"),
        (b"a\r\nb\r\n", b"a\r\nb\r\n"),
        (b"a\r\r\nb\nc\rd", b"a\r\r\nb\r\nc\rd"),  # a lone CR is no line end
        (b"\n\n", b"\r\n\r\n"),
        (b"", b""),
    ],
)
def test_every_line_ends_crlf_on_the_wire(raw: bytes, wire: bytes) -> None:
    assert crlf_lines(raw) == wire


def test_lines_that_start_with_a_dot_arrive_as_they_were_written(
    smtp_server: SmtpServer, sender: SmtpSender
) -> None:
    email = STATUS_EMAIL + b".\n..two dots\n. a dot and a blank\nnone.\n.\n"
    assert sender.send(email, ["alice@example.org"], MODERATOR).ok
    [mail] = smtp_server.wait_for(1)
    assert mail.raw == email.replace(b"\n", b"\r\n")


@given(st.lists(st.sampled_from([b".", b"..", b"a", b"a.b", b" .", b"\r", b""])).map(b"\r\n".join))
def test_dot_stuffing_is_what_smtplib_sends(message: bytes) -> None:
    # smtplib's own `data`: a dot doubled at every line start, CRLF added if missing, a lone dot.
    expected = re.sub(rb"(?m)^\.", b"..", message)
    expected += b"" if expected.endswith(b"\r\n") else b"\r\n"
    assert dot_stuffed(message) == expected + b".\r\n"
