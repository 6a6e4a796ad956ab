"""Long lines of a letter's plain text wrapped at 78 columns, as every section of it is.

A letter pasted whole under a reply must never be read as orders (templates/bigtime/board.txt.j2),
so no wrapped line may begin with an order word: each one stays on the line of the word before
it. Lines break at spaces only, so card ids, addresses and links stay whole.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from itertools import pairwise
from typing import get_args

from pbem.orders.commands import COMMANDS
from pbem.orders.games import grammar_for
from pbem.orders.signup import SIGNUP_WORDS
from pbem.orders.watching import WatchVerb

WIDTH = 78
# Read as orders at the start of a line too, though no grammar lists them: a request to the bare
# address (moderator/archive_mail.py) and the line that ends a SAY block (orders/parse.py).
_UNLISTED = ("ARCHIVE", "END")
# How the parser reads a line's order word (orders/parse.py `_read_line`): a bullet before it is
# dropped, the word ends at a space, `,`, `#` or `=`, and `:` or a sentence's end after it.
_BULLETS = "*\u2022\u2023\u25e6-"
_BULLET_WORDS = frozenset(_BULLETS)
_BULLET = re.compile(rf"^[{_BULLETS}]\s+")
_FIRST_WORD = re.compile(r"[^\s,#=]+")
_AFTER_WORD = ":.!?"
_WORD = re.compile(r"[^ ]+")
# A tab or a line break in a line to wrap is a space: the wrapping alone breaks lines.
_AS_SPACE = str.maketrans("\t\n\r\v\f", "     ")


@cache
def order_words() -> frozenset[str]:
    """Every word a line of orders or a request may begin with, upper case: each game's orders,
    the commands, sign-up, watching and the archive. Asked of the grammars the parser reads
    with, so a new order is covered as soon as players may write it."""
    games = (form.word for game in ("showmanager", "bigtime") for form in grammar_for(game).orders)
    return frozenset(
        word.upper()
        for word in (
            *games,
            *(form.word for form in COMMANDS),
            *SIGNUP_WORDS,
            *get_args(WatchVerb),
            *_UNLISTED,
        )
    )


def hanging(text: str, first: str = "", later: str | None = None, width: int = WIDTH) -> str:
    """`text` after `first`, wrapped at `width` columns; each further line begins with `later`
    (spaces as wide as `first`: a hanging indent). A line that fits is returned at once."""
    if len(first) + len(text) <= width:
        return first + text
    later = " " * len(first) if later is None else later
    # (Translating costs more than looking: only a line with something unprintable is.)
    text = (text if text.isprintable() else text.translate(_AS_SPACE)).strip(" ")
    kept = _kept_spaces(text)
    lines: list[str] = []
    start, room = 0, width - len(first)
    while len(text) - start > room:
        cut = text.rfind(" ", start, start + room + 1)
        while cut > start and cut in kept:
            cut = text.rfind(" ", start, cut)
        if cut <= start:  # a word longer than the line: it stands alone, never broken
            cut = text.find(" ", start + room + 1)
            while cut in kept:
                cut = text.find(" ", cut + 1)
            if cut < 0:
                break
        lines.append(text[start:cut].rstrip(" "))
        start = cut + 1
        while text[start] == " ":  # the text ends in a word: the spaces end before it
            start += 1
        room = width - len(later)
    lines.append(text[start:])
    return "\n".join([first + lines[0], *(later + line for line in lines[1:])])


def _kept_spaces(text: str) -> set[int]:
    """Where `text` must not break: the spaces before an order word, and before a bullet (a
    line beginning "- " reads as an item of its own, and "- BID" as BID)."""
    upper = text.upper()
    # A line's first word as the parser reads it is then read off the upper-cased text as it
    # stands: no invisible or odd characters, nothing NFKC would change, and no letter whose
    # capital is longer ("ß": the places would no longer match).
    plain = text.isascii() or (
        text.isprintable() and unicodedata.is_normalized("NFKC", text) and len(upper) == len(text)
    )
    if plain:
        return {
            index
            for found in _spaces_kept().finditer(upper)
            for index in range(found.start(), found.end())
        }
    words = list(_WORD.finditer(text))
    kept: set[int] = set()
    for before, word in pairwise(words):
        if word[0] in _BULLET_WORDS or _begins_orders(word[0]):
            kept.update(range(before.end(), word.start()))
    return kept


@cache
def _spaces_kept() -> re.Pattern[str]:
    """In upper-case text, the spaces before an order word or a bullet."""
    words = "|".join(sorted(order_words(), key=len, reverse=True))
    bullet = rf"[{_BULLETS}](?: |$)"
    return re.compile(rf" +(?=(?:{words})[{_AFTER_WORD}]*(?:[ ,#=]|$)|{bullet})")


def _begins_orders(line: str) -> bool:
    """Whether a line beginning with `line` is read as orders, read as the parser reads it: with
    no invisible characters, a bullet dropped, its letters in their plain forms, in any case."""
    visible = "".join(c for c in line if unicodedata.category(c) != "Cf").strip()
    spoken = unicodedata.normalize("NFKC", _BULLET.sub("", visible))
    first = _FIRST_WORD.match(spoken)
    return first is not None and first[0].rstrip(_AFTER_WORD).upper() in order_words()
