"""Reading the orders in the new text of one email, line by line, against a game's grammar."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from pbem.games.bigtime import actions as bigtime
from pbem.games.showmanager import actions as showmanager
from pbem.orders.grammar import Command, Grammar, Order, Password
from pbem.orders.words import Problem, Words, one_edit_apart, split_words

# Typos are only guessed for order words this long: shorter ones are too close to everyday words.
MIN_TYPO_WORD = 4

_BULLET = re.compile(r"^[*\u2022\u2023\u25e6-]\s+")
_FIRST_WORD = re.compile(r"[^\s,#=]+")
_SENTENCE_END = ".!?"

GameAction = showmanager.Action | bigtime.Action


@dataclass(frozen=True)
class OrderLine:
    """One order read from line `number`; `REFRESH 2` gives two of these with the same line."""

    number: int
    text: str
    order: Order


@dataclass(frozen=True)
class IgnoredLine:
    number: int
    text: str


@dataclass(frozen=True)
class LineError:
    """A line that is an order (or nearly) but is not well formed, and the forms accepted."""

    number: int
    text: str
    reason: str
    accepted: tuple[str, ...]

    def __str__(self) -> str:
        stop = "" if self.reason.endswith(("?", "!", ".")) else "."
        accepted = " | ".join(self.accepted)
        return f'line {self.number} "{self.text}": {self.reason}{stop} Accepted: {accepted}'


@dataclass(frozen=True)
class ParsedOrders:
    """Everything one email said, in the order written."""

    orders: tuple[OrderLine, ...]
    ignored: tuple[IgnoredLine, ...]
    errors: tuple[LineError, ...]

    @property
    def has_orders(self) -> bool:
        """Whether any line was meant as an order, well formed or not (else: answer with HELP)."""
        return bool(self.orders or self.errors)

    @property
    def actions(self) -> tuple[GameAction, ...]:
        """The game's actions, in order, without the commands."""
        return tuple(
            line.order for line in self.orders if not isinstance(line.order, Command | Password)
        )

    @property
    def commands(self) -> tuple[Command | Password, ...]:
        return tuple(
            line.order for line in self.orders if isinstance(line.order, Command | Password)
        )


def parse_orders(text: str, grammar: Grammar) -> ParsedOrders:
    """Each line of `text` read as an order, an error or an ignored line; never raises."""
    orders: list[OrderLine] = []
    ignored: list[IgnoredLine] = []
    errors: list[LineError] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        outcome = _read_line(number, line, grammar)
        if isinstance(outcome, LineError):
            errors.append(outcome)
        elif isinstance(outcome, IgnoredLine):
            ignored.append(outcome)
        else:
            orders.extend(OrderLine(number, line, order) for order in outcome)
    return ParsedOrders(tuple(orders), tuple(ignored), tuple(errors))


def _read_line(number: int, line: str, grammar: Grammar) -> list[Order] | LineError | IgnoredLine:
    spoken = unicodedata.normalize("NFKC", _BULLET.sub("", _visible(line))).rstrip(_SENTENCE_END)
    first = _FIRST_WORD.match(spoken)
    if first is None:
        return IgnoredLine(number, line)
    word = first[0].rstrip(":").upper()
    form = grammar.form(word)
    if form is not None:
        rest = spoken[first.end() :]
        read = form.read(Words(split_words(rest), rest))
        if isinstance(read, Problem):
            return LineError(number, line, read.reason, form.forms)
        return list(read)
    meant = [
        known
        for known in grammar.words
        if len(known) >= MIN_TYPO_WORD and one_edit_apart(word, known)
    ]
    if meant:
        accepted = tuple(shape for known in meant for shape in _forms(grammar, known))
        return LineError(
            number,
            line,
            f"{first[0]!r} is not an order: did you mean {' or '.join(meant)}?",
            accepted,
        )
    return IgnoredLine(number, line)


def _visible(line: str) -> str:
    """`line` without format characters (zero-width spaces, byte-order and direction marks).

    They are invisible, so the player cannot see them, yet web pages and chat apps paste them into
    mail; left in, they would make `HIRE 0` an unknown word.
    """
    return "".join(c for c in line if unicodedata.category(c) != "Cf").strip()


def _forms(grammar: Grammar, word: str) -> tuple[str, ...]:
    form = grammar.form(word)
    return form.forms if form is not None else ()
