"""Reading delivery status notifications (bounces) to learn which player address failed."""

from __future__ import annotations

from pbem.mail.bounces import Bounce, parse_dsn

POSTFIX_BOUNCE = b"""\
Return-Path: <>
Received: by mail.example.org (Postfix) id 4F1A2; Sun, 29 Nov 2026 10:00:00 +0000 (UTC)
Date: Sun, 29 Nov 2026 10:00:00 +0000 (UTC)
From: MAILER-DAEMON@mail.example.org (Mail Delivery System)
Subject: Undelivered Mail Returned to Sender
To: moderator@pbem.example.org
Auto-Submitted: auto-replied
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status;
\tboundary="4F1A2.1795968000/mail.example.org"
Message-Id: <20261129100000.4F1A2@mail.example.org>

This is a MIME-encapsulated message.

--4F1A2.1795968000/mail.example.org
Content-Description: Notification
Content-Type: text/plain; charset=us-ascii

This is the mail system at host mail.example.org.

I'm sorry to have to inform you that your message could not
be delivered to one or more recipients.

<bob@example.net>: host mx.example.net[192.0.2.7] said: 550 5.1.1 <bob@example.net>:
    Recipient address rejected: User unknown in local recipient table

--4F1A2.1795968000/mail.example.org
Content-Description: Delivery report
Content-Type: message/delivery-status

Reporting-MTA: dns; mail.example.org
X-Postfix-Queue-ID: 4F1A2
Arrival-Date: Sun, 29 Nov 2026 09:59:58 +0000 (UTC)

Final-Recipient: rfc822; bob@example.net
Original-Recipient: rfc822;bob@example.net
Action: failed
Status: 5.1.1
Remote-MTA: dns; mx.example.net
Diagnostic-Code: smtp; 550 5.1.1 <bob@example.net>: Recipient address rejected:
    User unknown in local recipient table

Final-Recipient: rfc822; carol@example.com
Action: delayed
Status: 4.4.1
Diagnostic-Code: X-Postfix; connect to mx.example.com[198.51.100.3]:25: Connection timed out

Final-Recipient: rfc822; <dave@example.com>
Action: failed
Status: 5.2.2 (mailbox full)

--4F1A2.1795968000/mail.example.org
Content-Description: Undelivered Message Headers
Content-Type: text/rfc822-headers

Return-Path: <moderator@pbem.example.org>
From: The Moderator <moderator@pbem.example.org>
To: bob@example.net
Subject: [sm-12] Turn 3: your move
Message-ID: <sm-12.turn-3.bob@pbem.example.org>

--4F1A2.1795968000/mail.example.org--
"""

PLAYER_EMAIL = b"""\
From: alice@example.org
To: moderator@pbem.example.org
Subject: Re: [sm-12] Turn 3
Content-Type: text/plain

STAGE 2
"""


def test_failed_recipients_are_read_from_a_postfix_bounce() -> None:
    bounces = parse_dsn(POSTFIX_BOUNCE)
    assert [bounce.recipient for bounce in bounces] == ["bob@example.net", "dave@example.com"]
    assert bounces[0] == Bounce(
        recipient="bob@example.net",
        status="5.1.1",
        action="failed",
        diagnostic="smtp; 550 5.1.1 <bob@example.net>: Recipient address rejected: "
        "User unknown in local recipient table",
        original_message_id="<sm-12.turn-3.bob@pbem.example.org>",
    )
    assert bounces[1].status == "5.2.2"


def test_a_delayed_delivery_is_not_a_bounce() -> None:
    recipients = {bounce.recipient for bounce in parse_dsn(POSTFIX_BOUNCE)}
    assert "carol@example.com" not in recipients


def test_an_ordinary_email_has_no_bounces() -> None:
    assert parse_dsn(PLAYER_EMAIL) == []


def test_the_original_message_quoted_whole_gives_its_message_id() -> None:
    quoted_whole = POSTFIX_BOUNCE.replace(
        b"Content-Type: text/rfc822-headers", b"Content-Type: message/rfc822"
    )
    assert parse_dsn(quoted_whole)[0].original_message_id == ("<sm-12.turn-3.bob@pbem.example.org>")


def test_a_report_that_is_not_about_delivery_is_ignored() -> None:
    read_receipt = POSTFIX_BOUNCE.replace(
        b"report-type=delivery-status", b"report-type=disposition-notification"
    )
    assert parse_dsn(read_receipt) == []
