"""An order line cut into words, and the small readers every grammar shares.

A reader returns what it read or a `Problem` (why the line is malformed); a malformed line is a
player's mistake, so it is a value, never an exception.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from pbem.orders.names import NameTable

_SEPARATORS = re.compile(r"[\s,]+")
_MARKS = re.compile(r"([#=])")
# Longer numbers are never meant (and Python refuses to read ints of thousands of digits).
_MAX_DIGITS = 9


@dataclass(frozen=True)
class Problem:
    """Why a line is not a well-formed order, in words a player can act on."""

    reason: str


def split_words(text: str) -> list[str]:
    """Words split at spaces and commas; `#` and `=` stand alone (`WOLF#2`, `14=Queenie`).

    NFKC turns what some clients send (full-width digits and letters, ligatures) into plain text.
    """
    spaced = _MARKS.sub(r" \1 ", unicodedata.normalize("NFKC", text))
    return [word for word in _SEPARATORS.split(spaced) if word]


def is_number(word: str) -> bool:
    return word.isascii() and word.isdigit() and len(word) <= _MAX_DIGITS


@dataclass
class Words:
    """The words of a line after its order word, read left to right; `rest` is them as written."""

    items: list[str]
    rest: str
    position: int = 0

    def peek(self) -> str | None:
        return self.items[self.position] if self.position < len(self.items) else None

    def take(self) -> str | None:
        word = self.peek()
        if word is not None:
            self.position += 1
        return word

    def remaining(self) -> list[str]:
        return self.items[self.position :]

    def skip(self, count: int) -> None:
        self.position += count

    @property
    def at_end(self) -> bool:
        return self.position >= len(self.items)


def read_number(words: Words, what: str, *, money: bool = False) -> int | Problem:
    """A whole number; `money` also takes it with a `$` (`$3`, `3$`, or `$ 3`)."""
    if money and words.peek() == "$":
        words.take()
    word = words.peek()
    if word is None:
        return Problem(f"{what} is missing")
    value = money_value(word) if money else (int(word) if is_number(word) else None)
    if value is None and word.startswith("<"):
        # An example copied as it stood ("LOAN WOLF#1 <1-6 points>"): say what to put there.
        rest = words.remaining()
        end = next((i for i, part in enumerate(rest) if part.endswith(">")), 0)
        placeholder = " ".join(rest[: end + 1])
        return Problem(f"{placeholder} is the example's placeholder: write {what} there, e.g. 3")
    if value is None:
        return Problem(f"{what} must be a whole number, not {word!r}")
    words.take()
    return value


def money_value(word: str) -> int | None:
    """Money as a player writes it: `3`, or with the `$` the status emails show (`$3`, `3$`)."""
    bare = word.removeprefix("$") if word.startswith("$") else word.removesuffix("$")
    return int(bare) if is_number(bare) else None


def read_name(words: Words, table: NameTable, shown: str) -> str | Problem:
    """A canonical name from `table`; `shown` lists the choices in the player's theme."""
    run = _name_run(words.remaining())
    match = table.match(run)
    if match is None:
        found = f"{run[0]!r} is not" if run else "missing:"
        return Problem(f"{found} a {table.kind} (choose one of {shown})")
    if match.name is None:
        written = " ".join(run[: match.length])
        return Problem(f"{written!r} could be {' or '.join(match.candidates)}: write more of it")
    words.skip(match.length)
    return match.name


def _name_run(words: list[str]) -> list[str]:
    """The words a name may span: up to the next `#` or `=` mark."""
    for index, word in enumerate(words):
        if word in ("#", "="):
            return words[:index]
    return words


def expect_end(words: Words) -> Problem | None:
    if words.at_end:
        return None
    return Problem(f"unexpected {' '.join(words.remaining())!r} at the end")


def one_edit_apart(first: str, second: str) -> bool:
    """Exactly one letter added, dropped or changed, or two neighbours swapped (Damerau)."""
    if first == second or abs(len(first) - len(second)) > 1:
        return False
    if len(first) == len(second):
        differ = [index for index, (a, b) in enumerate(zip(first, second, strict=True)) if a != b]
        if len(differ) == 1:
            return True
        return (
            len(differ) == 2
            and differ[1] == differ[0] + 1
            and first[differ[0]] == second[differ[1]]
            and first[differ[1]] == second[differ[0]]
        )
    shorter, longer = sorted((first, second), key=len)
    index = next(
        (i for i, (a, b) in enumerate(zip(shorter, longer, strict=False)) if a != b), len(shorter)
    )
    return shorter[index:] == longer[index + 1 :]
