"""Reading the orders in the new text of one email, line by line, against a game's grammar."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from pbem.games.bigtime import actions as bigtime
from pbem.games.showmanager import actions as showmanager
from pbem.orders.grammar import SECRET_SHOWN, AnyCommand, Grammar, Order, OrderForm, Password, Talk
from pbem.orders.quotes import is_orders_mark
from pbem.orders.words import Problem, Words, one_edit_apart, split_words

_BULLET = re.compile(r"^[*\u2022\u2023\u25e6-]\s+")
_FIRST_WORD = re.compile(r"[^\s,#=]+")
_SENTENCE_END = ".!?"
_BLOCK_END = "END"
_PASSWORD = "PASSWORD"
# Courtesy words that may end an order line (`HIRE 0, please`), read as no part of it.
_COURTESY = frozenset({"PLEASE", "PLS", "PLZ", "THANKS", "THX", "CHEERS", "THANK YOU"})

GameAction = showmanager.Action | bigtime.Action


@dataclass(frozen=True)
class OrderLine:
    """One order read from line `number`; `REFRESH 2` gives two of these with the same line.
    A SAY ... END block is one, read from its SAY line: `block` holds the lines under it as
    written, END included, so that a reply can quote the whole block."""

    number: int
    text: str
    order: Order
    block: tuple[str, ...] = ()


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
        """The game's actions, in order, without the commands and the talk."""
        return tuple(
            line.order for line in self.orders if not isinstance(line.order, AnyCommand | Talk)
        )

    @property
    def talk(self) -> tuple[Talk, ...]:
        return tuple(line.order for line in self.orders if isinstance(line.order, Talk))

    @property
    def commands(self) -> tuple[AnyCommand, ...]:
        return tuple(line.order for line in self.orders if isinstance(line.order, AnyCommand))


def parse_orders(text: str, grammar: Grammar) -> ParsedOrders:
    """Each line of `text` read as an order, an error or an ignored line; never raises.

    Reading stops at the mark line the moderator's emails start with, so a status pasted under
    the orders is never read, whichever way the text came (email, transcript, GM). A line SAY
    (or SAY TO <name>) alone opens a block of talk: the lines up to a line END are its text,
    as written, never read as orders.
    """
    orders: list[OrderLine] = []
    ignored: list[IgnoredLine] = []
    errors: list[LineError] = []
    block: OrderLine | None = None  # the SAY line of an open block
    said: list[str] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if is_orders_mark(raw):
            break
        line = raw.strip()
        if block is not None:
            if _visible(line).upper().rstrip(_SENTENCE_END) != _BLOCK_END:
                said.append(raw.rstrip())
                continue
            orders.append(_closed(block, said, line))
            block, said = None, []
            continue
        if not line or line.startswith("#"):
            continue
        outcome = _read_line(number, line, grammar)
        if isinstance(outcome, LineError):
            errors.append(outcome)
        elif isinstance(outcome, IgnoredLine):
            ignored.append(outcome)
        elif outcome and isinstance(outcome[0], Talk) and not outcome[0].text:
            block = OrderLine(number, line, outcome[0])
        else:
            # A PASSWORD line is quoted without its secret (a reply may be forwarded).
            secret = any(isinstance(order, Password) for order in outcome)
            text = _masked(line) if secret else line
            orders.extend(OrderLine(number, text, order) for order in outcome)
    if block is not None:
        errors.append(_unclosed(block, grammar))
    return ParsedOrders(tuple(orders), tuple(ignored), tuple(errors))


def _closed(block: OrderLine, said: list[str], end: str) -> OrderLine:
    """The block's talk: its lines without the blank ones around them (the text as written)."""
    assert isinstance(block.order, Talk)
    text = "\n".join(said).strip("\n")
    written = (*text.splitlines(), end)
    return OrderLine(block.number, block.text, Talk(text, block.order.to), written)


def _unclosed(block: OrderLine, grammar: Grammar) -> LineError:
    form = grammar.form("SAY")
    shapes = form.forms if form is not None else ()
    return LineError(
        block.number,
        block.text,
        "a SAY alone on its line starts a message of several lines: end it with a line END "
        "(or write the message on the SAY line)",
        shapes,
    )


def _read_line(number: int, line: str, grammar: Grammar) -> list[Order] | LineError | IgnoredLine:
    spoken = unicodedata.normalize("NFKC", _BULLET.sub("", _visible(line))).rstrip(_SENTENCE_END)
    first = _FIRST_WORD.match(spoken)
    if first is None:
        return IgnoredLine(number, line)
    word = first[0].rstrip(":" + _SENTENCE_END).upper()  # `HIRE: 2`, `Status? please`
    rest = spoken[first.end() :]
    head, colon, tail = first[0].partition(":")
    if colon and tail and head.upper() == _PASSWORD:
        # `PASSWORD:k7q2m` authenticates (inbound._PASSWORD): read as PASSWORD, not ignored
        # (and so quoted whole).
        word, rest = _PASSWORD, f"{tail}{rest}"
    form = grammar.form(word)
    if form is not None:
        if form.verbatim:
            read = form.read(_verbatim(line))
        else:
            read = (
                form.read(Words([], "")) if form.chatter else _read_arguments(form, rest, grammar)
            )
        if isinstance(read, Problem):
            return LineError(number, _quoted(line, [form], rest), read.reason, form.forms)
        return list(read)
    meant = _typo_of(word, rest, grammar)
    if meant:
        return LineError(
            number,
            _quoted(line, meant, rest),
            f"{first[0]!r} is not an order: did you mean {' or '.join(m.word for m in meant)}?",
            tuple(shape for form in meant for shape in form.forms),
        )
    return IgnoredLine(number, line)


def _quoted(line: str, forms: Sequence[OrderForm], rest: str) -> str:
    """`line` as an error quotes it: masked when it is (or nearly is) a PASSWORD with a secret,
    `PASSWORD k7q2m extra` and `Pasword k7q2m` too."""
    if rest.strip() and any(form.word == _PASSWORD for form in forms):
        return _masked(line)
    return line


def _masked(line: str) -> str:
    """A PASSWORD line as a reply quotes it: its first word as written, then `SECRET_SHOWN`."""
    spoken = _BULLET.sub("", _visible(line))
    first = _FIRST_WORD.match(spoken)
    word = first[0].partition(":")[0] if first else _PASSWORD
    return f"{word} {SECRET_SHOWN}"


def _read_arguments(form: OrderForm, rest: str, grammar: Grammar) -> Sequence[Order] | Problem:
    """`rest` read as the arguments of `form`. As a command may be followed by chatter
    (`status please`), a game order may end in a courtesy word (`Hire 0 please`): a line that
    does not read with it is read without it. Only then, so no line that reads as written changes
    meaning; and never a command's (`RESIGN please` must stand alone, PASSWORD takes any word)."""
    read = form.read(_words(rest))
    if not isinstance(read, Problem) or form not in grammar.orders:
        return read
    words = split_words(rest)
    plain = _without_courtesy(words)
    if len(plain) == len(words):
        return read
    polite = form.read(Words(plain, rest))
    return read if isinstance(polite, Problem) else polite


def _without_courtesy(words: list[str]) -> list[str]:
    """`words` without the courtesy words at their end (`0 please` -> `0`)."""
    end = len(words)
    while end:
        if words[end - 1].upper() in _COURTESY:
            end -= 1
        elif end > 1 and f"{words[end - 2]} {words[end - 1]}".upper() in _COURTESY:
            end -= 2
        else:
            break
    return words[:end]


def _verbatim(line: str) -> Words:
    """The line after its first word, as written (only format characters and a bullet gone)."""
    written = _BULLET.sub("", _visible(line))
    first = _FIRST_WORD.match(written)
    return Words([], written[first.end() :] if first else "")


def _words(rest: str) -> Words:
    return Words(split_words(rest), rest)


def _typo_of(word: str, rest: str, grammar: Grammar) -> list[OrderForm]:
    """The order words `word` is one edit from whose arguments `rest` reads as (ORDERS.md).

    The arguments decide, not the word's length: `BDI 3 2 2` is a typo of BID, while "Here are
    my orders:" (HIRE) and "An idea" (AM) are chatter. Commands are judged without their chatter,
    so "Held up at work" is not a HELP, and orders without courtesy words, so "Refreshed, thanks"
    is not a REFRESH.
    """
    return [
        form
        for form in grammar.forms
        if not form.verbatim
        and one_edit_apart(word, form.word)
        and not isinstance(form.read(_words(rest)), Problem)
    ]


def _visible(line: str) -> str:
    """`line` without format characters (zero-width spaces, byte-order and direction marks).

    They are invisible, so the player cannot see them, yet web pages and chat apps paste them into
    mail; left in, they would make `HIRE 0` an unknown word.
    """
    return "".join(c for c in line if unicodedata.category(c) != "Cf").strip()
