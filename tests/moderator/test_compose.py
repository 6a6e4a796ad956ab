"""The composer writes the very bytes the email package would write for the same letter:
headers folded alike, the same Content-Transfer-Encoding chosen, the same payload."""

from __future__ import annotations

from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import format_datetime, formataddr

import pytest

from pbem.moderator.compose import Letter, compose, header_safe, thread_root
from pbem.moderator.mime import encode_text
from tests.moderator.golden_play import normalised

SENDER, NAME, DOMAIN = "pbem@example.org", "pbem moderator", "example.org"


def reference(letter: Letter, game_id: str | None, message_id: str) -> bytes:
    """The letter as an `EmailMessage` writes it: how pbem composed letters before."""
    message = EmailMessage()
    message["From"] = formataddr((header_safe(NAME), SENDER))
    message["To"] = header_safe(letter.to)
    message["Subject"] = header_safe(letter.subject)
    message["Date"] = format_datetime(datetime.now(UTC))
    message["Message-ID"] = message_id
    if letter.reply_to:
        message["Reply-To"] = header_safe(letter.reply_to)
    references = [thread_root(game_id, DOMAIN)] if game_id else []
    if letter.in_reply_to:
        message["In-Reply-To"] = header_safe(letter.in_reply_to)
        references.append(header_safe(letter.in_reply_to))
    elif game_id:
        message["In-Reply-To"] = references[0]
    if references:
        message["References"] = " ".join(references)
    message["Auto-Submitted"] = "auto-replied" if letter.kind == "reply" else "auto-generated"
    message["Precedence"] = "bulk"
    message.set_content(letter.text)
    message.add_alternative(letter.html, subtype="html")
    return message.as_bytes()


LONG = "A line long enough to be wrapped by quoted-printable encoding, " * 3
TEXTS = [
    "",
    "Short and plain.\n",
    "Short, with a middle dot · and an é.\n",
    f"{LONG}\nand then short lines\n" * 3,
    "=" * 40 + " title · with a dot\n" + LONG + "\n",
    "\n".join(LONG[:n] + " " for n in range(70, 82)) + "\n",
    "\n".join(LONG[:n] + "\t" for n in range(70, 82)),
    "\n".join(("x" * n) + "=" + "y" * 10 for n in range(70, 80)),
    "windows\r\nline ends\r\n" + LONG,
    "é" * 100 + "\n" + "plain\n" * 20,
    "plain\n" * 20 + "é" * 100 + "\n",
]


@pytest.mark.parametrize("text", TEXTS)
def test_a_body_is_encoded_as_set_content_encodes_it(text: str) -> None:
    message = EmailMessage()
    message.set_content(text)
    # The stored payload: get_payload() would decode the bytes of an 8bit body.
    payload = message._payload
    assert encode_text(text) == (
        message["Content-Transfer-Encoding"],
        payload.encode("ascii", "surrogateescape"),
    )


LETTERS = [
    Letter(
        "ann@example.org",
        "[bt-1] Welcome · Round 1 · Phase 1",
        TEXTS[3],
        TEXTS[4],
        "status",
        reply_to="pbem+bt-1.abcde@example.org",
    ),
    Letter(
        "bo@example.org",
        "[bt-1] Not carried out · Round 1 · Phase 3",
        TEXTS[9],
        TEXTS[5],
        "reply",
        reply_to="pbem+bt-1.fghij@example.org",
        in_reply_to="<order-1@players.invalid>",
    ),
    Letter(
        "zed@example.org",
        "Re: " + "a very long subject, said twice · " * 4,
        TEXTS[1],
        TEXTS[2],
        "stranger",
        in_reply_to="<x@y>",
    ),
    Letter('Ann Smith, "the Great" <ann@example.org>', "plain", TEXTS[0], TEXTS[0], "gm"),
    Letter("di@example.org", "Ünïcode subject", TEXTS[7], TEXTS[8], "notice"),
]


@pytest.mark.parametrize("letter", LETTERS)
@pytest.mark.parametrize("game_id", ["bt-1", None])
def test_a_letter_is_the_bytes_an_email_message_writes(letter: Letter, game_id: str | None) -> None:
    composed = compose(letter, SENDER, NAME, game_id, DOMAIN)
    expected = reference(letter, game_id, composed.message_id)
    assert normalised(composed.raw) == normalised(expected)
    assert f"Message-ID: {composed.message_id}\n".encode() in composed.raw
