"""Building the emails the moderator sends: headers that thread, route replies and stop loops."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import format_datetime, formataddr, make_msgid

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


def header_safe(value: str) -> str:
    """Header text with CR/LF removed, so a player's name or subject cannot inject headers."""
    return _UNSAFE_HEADER.sub(" ", value).strip()


def thread_root(game_id: str, domain: str) -> str:
    """The Message-ID every email of a game refers to, so mail clients show one thread."""
    return f"<{game_id}.thread@{domain}>"


def compose(
    letter: Letter, sender: str, sender_name: str, game_id: str | None, domain: str
) -> EmailMessage:
    message = EmailMessage()
    message["From"] = formataddr((header_safe(sender_name), sender))
    message["To"] = header_safe(letter.to)
    message["Subject"] = header_safe(letter.subject)
    message["Date"] = format_datetime(datetime.now(UTC))
    message["Message-ID"] = make_msgid(idstring=game_id or "pbem", domain=domain)
    if letter.reply_to:
        message["Reply-To"] = header_safe(letter.reply_to)
    references = [thread_root(game_id, domain)] if game_id else []
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
    # The first attachment turns the text and HTML alternatives into one part of a mixed message.
    for attachment in letter.attachments:
        message.add_attachment(
            attachment.content,
            maintype=attachment.maintype,
            subtype=attachment.subtype,
            filename=header_safe(attachment.filename),
            params={"charset": attachment.charset} if attachment.charset else None,
        )
    return message
