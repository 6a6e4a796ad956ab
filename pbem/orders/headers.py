"""The few header values the moderator reads from an incoming email, read so they never raise."""

from __future__ import annotations

from email.message import Message
from email.utils import getaddresses

# Where the address the player replied to (the moderator's plus-address) can be found; the
# delivery headers first, since they hold the envelope recipient even when To was rewritten.
RECIPIENT_HEADERS = ("Delivered-To", "X-Original-To", "Envelope-To", "To", "Cc")


def header_values(message: Message, name: str) -> list[str]:
    """Every value of header `name`, decoded (RFC 2047), on one line each."""
    try:
        values = [str(value) for value in message.get_all(name, [])]
    # The stdlib's header parsing raises assorted errors on some malformed headers; a broken
    # header must not lose the email, so it is read undecoded instead.
    except Exception:
        values = [
            _undecoded(value) for key, value in message.raw_items() if key.lower() == name.lower()
        ]
    return [" ".join(value.split()) for value in values]


def first_header(message: Message, name: str) -> str | None:
    values = [value for value in header_values(message, name) if value]
    return values[0] if values else None


def addresses(message: Message, *names: str) -> tuple[str, ...]:
    """The bare addresses (`ann@example.org`) in headers `names`, in order, without repeats."""
    found: dict[str, None] = {}
    for name in names:
        # Most of `names` are absent from most emails: getaddresses of nothing is nothing, but
        # costs as much as reading one address.
        if not (values := header_values(message, name)):
            continue
        for _, address in getaddresses(values):
            if "@" in address:
                found.setdefault(address.strip(), None)
    return tuple(found)


def message_ids(message: Message, name: str) -> tuple[str, ...]:
    """The `<id@host>` tokens of In-Reply-To or References."""
    return tuple(word for value in header_values(message, name) for word in value.split())


def _undecoded(value: object) -> str:
    text = str(value)
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
