"""Building the emails the moderator sends: headers that thread, route replies and stop loops.

A letter goes straight to the bytes the email package would write for it (an `EmailMessage`
with `set_content(text)`, `add_alternative(html, subtype="html")`, then `as_bytes()`), without
building the message object: each header is folded by the email package's own header classes
(cached, since most values repeat from letter to letter; the new Message-ID and Date of each
letter, a reply's In-Reply-To and References, and the Content-Type naming the new boundary,
are written as those classes write them, `mime.folded_message_id`, `folded_date`, `folded_ids`,
`folded_multipart`), and each body part is encoded as its
content manager would (`mime.py`). tests/moderator/test_compose.py holds the two side by side.
"""

from __future__ import annotations

import binascii
import random
import re
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import formataddr, make_msgid

from pbem.moderator.mime import (
    BASE64_CHUNK,
    encode_text,
    folded,
    folded_date,
    folded_ids,
    folded_message_id,
    folded_multipart,
)

_UNSAFE_HEADER = re.compile(r"[\r\n\x00]+")


@dataclass(frozen=True)
class Attachment:
    """A file sent with a letter, e.g. a finished game's archive page (text/html)."""

    filename: str
    content: bytes
    maintype: str
    subtype: str
    charset: str | None = None  # of a text attachment, so a reader's client decodes it right


@dataclass(frozen=True)
class Letter:
    """One email to write: who to, what about, and its two renderings."""

    to: str
    subject: str
    text: str
    html: str
    kind: str  # "reply" answers a person; anything else is generated ("status", "gm", ...)
    reply_to: str | None = None
    in_reply_to: str | None = None
    attachments: tuple[Attachment, ...] = ()


@dataclass(frozen=True)
class Composed:
    """A letter as sent: its Message-ID and its bytes (LF line ends, as `as_bytes` writes)."""

    message_id: str
    raw: bytes


def header_safe(value: str) -> str:
    """Header text with CR/LF removed, so a player's name or subject cannot inject headers."""
    return _UNSAFE_HEADER.sub(" ", value).strip()


def thread_root(game_id: str, domain: str) -> str:
    """The Message-ID every email of a game refers to, so mail clients show one thread."""
    return f"<{game_id}.thread@{domain}>"


def compose(
    letter: Letter, sender: str, sender_name: str, game_id: str | None, domain: str
) -> Composed:
    message_id = make_msgid(idstring=game_id or "pbem", domain=domain)
    lines = [
        folded("From", formataddr((header_safe(sender_name), sender))),
        folded("To", header_safe(letter.to)),
        folded("Subject", header_safe(letter.subject)),
        folded_date(datetime.now(UTC)),
        folded_message_id(message_id),
    ]
    if letter.reply_to:
        lines.append(folded("Reply-To", header_safe(letter.reply_to)))
    references = [thread_root(game_id, domain)] if game_id else []
    if letter.in_reply_to:
        lines.append(folded_ids("In-Reply-To", header_safe(letter.in_reply_to)))
        references.append(header_safe(letter.in_reply_to))
    elif game_id:
        lines.append(folded_ids("In-Reply-To", references[0]))
    if references:
        lines.append(folded_ids("References", " ".join(references)))
    auto = "auto-replied" if letter.kind == "reply" else "auto-generated"
    lines += [
        folded("Auto-Submitted", auto),
        folded("Precedence", "bulk"),
        folded("MIME-Version", "1.0"),
    ]
    plain, html = _part("plain", letter.text), _part("html", letter.html, mime_version=True)
    content_type, body = _multipart("alternative", [plain, html])
    if letter.attachments:
        # The text and HTML alternatives become the first part of a mixed message.
        alternative = content_type + b"\n" + body
        files = [_attachment(attachment) for attachment in letter.attachments]
        content_type, body = _multipart("mixed", [alternative, *files])
    lines.append(content_type)
    raw = b"".join([*lines, b"\n", body])
    return Composed(message_id, raw)


def _multipart(subtype: str, parts: list[bytes]) -> tuple[bytes, bytes]:
    """(Content-Type header, body) of a multipart of `parts`, as `as_bytes` writes them."""
    boundary = _boundary(*parts)
    separator = f"--{boundary}\n".encode()
    body = b"\n".join(separator + part for part in parts) + f"\n--{boundary}--\n".encode()
    return folded_multipart(subtype, boundary), body


def _attachment(attachment: Attachment) -> bytes:
    """A file part: its type, its name, its bytes in base64."""
    charset = f'; charset="{attachment.charset}"' if attachment.charset else ""
    name = header_safe(attachment.filename).replace('"', "")
    headers = [
        folded("Content-Type", f"{attachment.maintype}/{attachment.subtype}{charset}"),
        folded("Content-Transfer-Encoding", "base64"),
        folded("Content-Disposition", f'attachment; filename="{name}"'),
        folded("MIME-Version", "1.0"),
    ]
    chunks = range(0, len(attachment.content), BASE64_CHUNK)
    payload = b"".join(
        binascii.b2a_base64(attachment.content[i : i + BASE64_CHUNK]) for i in chunks
    )
    return b"".join([*headers, b"\n", payload])


# As wide as the email package writes the boundary's number.
_DIGITS = len(repr(sys.maxsize - 1))


def _boundary(*parts: bytes) -> str:
    """A boundary of the email package's form and from its random source, found in no part."""
    while True:
        boundary = f"{'=' * 15}{random.randrange(sys.maxsize):0{_DIGITS}d}=="
        if not any(f"--{boundary}".encode() in part for part in parts):
            return boundary


def _part(subtype: str, content: str, mime_version: bool = False) -> bytes:
    """One body part, headers first, as `set_content` makes it. The HTML part is a message of
    its own in `add_alternative`, so it carries a MIME-Version header too."""
    cte, payload = encode_text(content)
    headers = [
        folded("Content-Type", f'text/{subtype}; charset="utf-8"'),
        folded("Content-Transfer-Encoding", cte),
    ]
    if mime_version:
        headers.append(folded("MIME-Version", "1.0"))
    return b"".join([*headers, b"\n", payload])
