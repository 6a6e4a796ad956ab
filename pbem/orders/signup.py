"""Sign-up orders: JOIN, LEAVE and HELP to a game's join address, LIST to the moderator's own.

A sign-up email holds one order: the first line whose first word is a sign-up word (greetings
before it are chatter, `pbem/orders/requests.py`). Its word is read in any case; what follows
JOIN is the name the player wants, and whatever follows LEAVE, LIST or HELP is chatter
(`LEAVE please`).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from pbem.orders.names import spelling_key
from pbem.orders.requests import request_line
from pbem.orders.words import one_edit_apart

SIGNUP_WORDS = ("JOIN", "LEAVE", "LIST", "HELP")
LONGEST_NAME = 40
# "Player 2" is how a seat without a name is called; a person cannot take it as a name.
_SEAT_NAME = re.compile(r"^player\s*\d+$", re.IGNORECASE)

# `{join}`: the game's join address, or its form (`pbem+join-GAME@host`) when no game is named.
SIGNUP_HELP = """\
Sign-up, by email to the game's join address ({join}):

  JOIN             take a seat; the other players read you as "Player N"
  JOIN Ann Smith   take a seat as Ann Smith (at most 40 letters, no @)
  LEAVE            give your seat back, before the game starts
  HELP             this text and the orders of the game

To the moderator's own address:

  LIST             the games open for sign-up and their join addresses

Your address is never shown to the other players; they read your name only.
"""


@dataclass(frozen=True)
class SignupOrder:
    """The order a sign-up email holds: its word ("" for none), JOIN's name, the line as written."""

    word: str
    name: str | None = None
    line: str = ""
    meant: str | None = None  # no order: the sign-up word the first line's word is a typo of


def first_line(text: str) -> str:
    """The first line of `text` that is not blank or a # comment; "" when there is none."""
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            return stripped
    return ""


def read_signup(text: str) -> SignupOrder:
    """The sign-up order of `text`; word "" when no line holds one (`line` is then the first)."""
    request = request_line(text, SIGNUP_WORDS)
    if request is None:
        line = first_line(text)
        first = line.split(maxsplit=1)[0].rstrip(":,.!?").upper() if line else ""
        # `Jion Bob`: named as a typo (ORDERS.md), as a misspelt game order is. Every sign-up
        # word takes whatever follows it, so the word alone decides.
        meant = next((word for word in SIGNUP_WORDS if one_edit_apart(first, word)), None)
        return SignupOrder("", line=line, meant=meant)
    name = " ".join(request.rest.split()) if request.word == "JOIN" else ""
    return SignupOrder(request.word, name or None, request.line)


def name_refusal(name: str) -> str | None:
    """Why `name` cannot be a player's name, or None when it can."""
    if len(name) > LONGEST_NAME:
        return f"the name {name[:LONGEST_NAME]}... is longer than {LONGEST_NAME} letters"
    if "@" in name or any(unicodedata.category(c).startswith("C") for c in name):
        return f"the name {name!r} may hold no @ and no control characters"
    if _SEAT_NAME.match(name):
        return f'"{name}" is how a seat without a name is called; choose another name'
    return None


def same_name(one: str, other: str) -> bool:
    """Whether two names read alike (case, spaces and hyphens aside), so one would be mistaken
    for the other."""
    return spelling_key(one) == spelling_key(other)


def name_clash(one: str, other: str) -> str | None:
    """The word of `other` that `SAY TO <word>` could not tell from `one`, or None: it names a
    player by their name or its first word, so `Ann` clashes with `Ann Smith` (on "Ann"), as do
    `Ann Lee` (on "Ann") and `ann-smith` (on "Ann Smith", a name that reads alike)."""
    for theirs in _said_as(other):
        if any(same_name(mine, theirs) for mine in _said_as(one)):
            return theirs
    return None


def _said_as(name: str) -> tuple[str, ...]:
    return (name, *name.split()[:1])
