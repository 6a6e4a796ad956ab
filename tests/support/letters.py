"""Reading what the moderator sent: the whole text of a letter, not just what is above its mark."""

from __future__ import annotations

from pbem.orders.incoming import parse_message
from pbem.orders.mime import body_text


def letter_text(raw: bytes) -> str:
    """The plain text of a moderator's email, all of it (read_email keeps only what a player
    wrote above the mark line, which in the moderator's own letters is nothing)."""
    return body_text(parse_message(raw))
