"""Matching the names players write (musicals, cities, roles) against the known ones.

ORDERS.md: a name matches ignoring case, spaces, hyphens and umlaut spelling, and the longest
known name at that point wins (`KING LEAR`, `kinglear`, `Köln`, `Koeln`, `Koln`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

_IGNORED_IN_NAMES = re.compile(r"[\s\-\u2010-\u2015_'\u2019.]+")
_WORD_BREAK = re.compile(r"[\s\-\u2010-\u2015]+")
_UMLAUT_AS_E = {"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"}


def spelling_key(text: str) -> str:
    """What is left of a name once case, spaces, hyphens and apostrophes stop mattering."""
    return _IGNORED_IN_NAMES.sub("", unicodedata.normalize("NFKC", text).casefold())


def _without_accents(key: str) -> str:
    decomposed = unicodedata.normalize("NFKD", key.replace("ß", "ss"))
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def spellings(name: str) -> set[str]:
    """Every key a player may write for `name`: as written, umlauts as `oe`, umlauts as `o`."""
    key = spelling_key(name)
    as_e = "".join(_UMLAUT_AS_E.get(char, char) for char in key)
    return {key, _without_accents(as_e), _without_accents(key)}


def name_words(name: str) -> list[str]:
    """The words of a name, split at spaces and hyphens (`Lady-in-Waiting`: three words)."""
    return [word for word in _WORD_BREAK.split(name) if word]


@dataclass(frozen=True)
class NameMatch:
    """The names a run of `length` words may mean; more than one candidate is ambiguous."""

    candidates: tuple[str, ...]
    length: int

    @property
    def name(self) -> str | None:
        return self.candidates[0] if len(self.candidates) == 1 else None


@dataclass(frozen=True)
class NameTable:
    """Known names of one kind, each reached by its spellings; full names beat partial ones."""

    kind: str
    shown: tuple[str, ...]
    full: dict[str, tuple[str, ...]]
    partial: dict[str, tuple[str, ...]]
    longest: int

    @classmethod
    def build(
        cls,
        kind: str,
        shown: Sequence[str],
        full: Iterable[tuple[str, str]],
        partial: Iterable[tuple[str, str]] = (),
    ) -> NameTable:
        """`full` and `partial` pair a way of writing a name with the name it stands for."""
        full_keys = _index(full)
        partial_keys = _index(partial)
        written = [*full_keys.values(), *partial_keys.values()]
        longest = max((count for counts in written for count in counts.values()), default=1)
        return cls(
            kind=kind,
            shown=tuple(shown),
            full={key: tuple(names) for key, names in full_keys.items()},
            partial={key: tuple(names) for key, names in partial_keys.items()},
            longest=longest,
        )

    def match(self, words: Sequence[str]) -> NameMatch | None:
        """The longest leading run of `words` that spells a known name, or None."""
        for length in range(min(self.longest, len(words)), 0, -1):
            key = spelling_key("".join(words[:length]))
            names = self.full.get(key) or self.partial.get(key)
            if names:
                return NameMatch(names, length)
        return None


def _index(pairs: Iterable[tuple[str, str]]) -> dict[str, dict[str, int]]:
    """spelling key -> {canonical name: words in the longest way of writing it}, in input order."""
    keys: dict[str, dict[str, int]] = {}
    for written, name in pairs:
        for key in spellings(written):
            names = keys.setdefault(key, {})
            names[name] = max(names.get(name, 0), len(name_words(written)))
    return keys
