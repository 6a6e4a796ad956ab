"""One incoming email, from raw RFC 822 bytes to what the moderator needs: headers and new text."""

from __future__ import annotations

from dataclasses import dataclass
from email import policy
from email.message import Message
from email.parser import BytesParser
from email.policy import EmailPolicy
from functools import lru_cache
from typing import Any

from pbem.orders.headers import RECIPIENT_HEADERS, addresses, first_header, message_ids
from pbem.orders.mime import body_text
from pbem.orders.quotes import Stop, read_new_text


@dataclass(frozen=True)
class IncomingEmail:
    """What an email says: who sent it, to whom, in reply to what, and the text newly written."""

    message_id: str | None
    subject: str
    sender: str | None  # the From address, bare (`ann@example.org`)
    reply_to: str | None
    recipients: tuple[str, ...]  # bare addresses from RECIPIENT_HEADERS, delivery headers first
    in_reply_to: tuple[str, ...]
    references: tuple[str, ...]
    text: str  # the new text only: no quotes, quote headers, signature or attachments
    stop: Stop | None = None  # where reading stopped (a quote header, a signature), if it did


class _ParsedOncePolicy(EmailPolicy):
    """`policy.default`, but each header value is parsed once, however often it is read.

    The default policy keeps headers as raw strings and parses one through the header registry
    each time it is read, and the moderator reads From twice and Content-Type (whose parameters
    are the costliest to parse) about seven times an email: parsing was a tenth of pbem's time.
    The parsed header objects are the same, only kept, and shared by the emails that have the
    same header: a player writes From the same address to the same reply address every time,
    and Content-Type and MIME-Version rarely differ. Header objects are immutable strings. A
    header that fails to parse raises each time, as before (exceptions are not kept).
    """

    def header_fetch_parse(self, name: str, value: str) -> Any:
        if type(value) is str and len(value) <= _KEPT_HEADER_LENGTH:
            return _parsed_header(name, value)
        return super().header_fetch_parse(name, value)


# What the kept headers may cost: 4,096 values of at most 998 characters (RFC 5322's line
# limit), a few MB at most; a longer value is parsed each time it is read.
_KEPT_HEADERS = 4096
_KEPT_HEADER_LENGTH = 998


@lru_cache(maxsize=_KEPT_HEADERS)
def _parsed_header(name: str, value: str) -> Any:
    return policy.default.header_fetch_parse(name, value)


_POLICY = _ParsedOncePolicy(header_factory=policy.default.header_factory)


def parse_message(raw: bytes) -> Message:
    """The stdlib's reading of `raw` (policy default); its headers alone if the body defeats it."""
    parser = BytesParser(policy=_POLICY)
    try:
        return parser.parsebytes(raw)
    # The parser is lenient by design (defects, not errors) but recurses once per nested multipart,
    # so a hostile nesting raises RecursionError; the headers still name the sender.
    except RecursionError:
        return parser.parsebytes(raw, headersonly=True)


def read_email(raw: bytes) -> IncomingEmail:
    """Everything the moderator reads from `raw`; never raises, returns what can be read."""
    return read_message(parse_message(raw))


def read_message(message: Message) -> IncomingEmail:
    """Everything the moderator reads from a parsed email; never raises."""
    text, stop = _read_text(message)
    return IncomingEmail(
        message_id=first_header(message, "Message-ID"),
        subject=first_header(message, "Subject") or "",
        sender=_first(addresses(message, "From")),
        reply_to=_first(addresses(message, "Reply-To")),
        recipients=addresses(message, *RECIPIENT_HEADERS),
        in_reply_to=message_ids(message, "In-Reply-To"),
        references=message_ids(message, "References"),
        text=text,
        stop=stop,
    )


def _first(values: tuple[str, ...]) -> str | None:
    return values[0] if values else None


def email_text(message: Message) -> str:
    """The new text of `message` (what the player typed); "" if nothing can be read."""
    return _read_text(message)[0]


def _read_text(message: Message) -> tuple[str, Stop | None]:
    try:
        return read_new_text(body_text(message))
    # Malformed MIME can trip the stdlib in many ways; an unreadable body reads as no text, which
    # the moderator answers with HELP rather than losing the email.
    except Exception:
        return "", None
