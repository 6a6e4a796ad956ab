"""From a parsed email to the readable text of its body: choosing the parts, decoding them.

Text parts are read (plain preferred over HTML in an alternative); attachments, non-text parts
and forwarded originals (message/rfc822) are not, so no order can hide in them.
"""

from __future__ import annotations

from email.message import Message

from pbem.orders.html_text import html_to_text

# No mail client nests multiparts this deep; deeper parts are not read, so a hostile nesting
# costs nothing.
MAX_DEPTH = 16
# Orders are a few lines at the top of the body; reading more only costs time on huge mails.
MAX_TEXT_CHARS = 200_000
# HTML spends most of its bytes on markup; this much holds far more text than MAX_TEXT_CHARS.
MAX_HTML_CHARS = 1_000_000
# A charset that lies or is missing: 8-bit mail is then most often UTF-8, else Windows' Latin-1.
_FALLBACK_CHARSETS = ("utf-8", "cp1252")


def body_text(message: Message) -> str:
    """The readable text of `message`: its text parts, decoded, HTML read as text."""
    return _part_text(message, 0)[:MAX_TEXT_CHARS]


def _part_text(part: Message, depth: int) -> str:
    if depth > MAX_DEPTH or _is_attachment(part) or part.get_content_maintype() == "message":
        return ""
    if part.is_multipart():
        children = [child for child in part.get_payload() if isinstance(child, Message)]
        if part.get_content_type() == "multipart/alternative":
            return _alternative_text(children, depth + 1)
        return "\n".join(text for child in children if (text := _part_text(child, depth + 1)))
    kind = part.get_content_type()
    if kind == "text/plain":
        return decoded_text(part)
    if kind == "text/html":
        return html_to_text(decoded_text(part)[:MAX_HTML_CHARS])
    return ""


def _alternative_text(children: list[Message], depth: int) -> str:
    """The plain-text rendering if there is one with text, else the first other that has text."""
    plain_first = sorted(children, key=lambda child: child.get_content_type() != "text/plain")
    return next((text for child in plain_first if (text := _part_text(child, depth)).strip()), "")


def _is_attachment(part: Message) -> bool:
    if part.get_content_disposition() == "attachment":
        return True
    # A text part with a file name is a file shown inline (Apple Mail does that), not the body.
    return not part.is_multipart() and part.get_filename() is not None


def decoded_text(part: Message) -> str:
    """A leaf part's payload, undone from its transfer encoding and decoded from its charset."""
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return ""
    return decode_bytes(payload, part.get_content_charset())


def decode_bytes(data: bytes, declared: str | None) -> str:
    """`data` in the declared charset if it reads cleanly in it, else in the usual suspects."""
    for charset in (declared, *_FALLBACK_CHARSETS):
        if charset is None:
            continue
        try:
            return data.decode(charset)
        except (LookupError, UnicodeError):
            continue
    return data.decode("latin-1")
