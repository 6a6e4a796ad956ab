"""The grammar tables: each order word with its forms, examples and reader.

The parser, its error messages and the HELP text all read these tables, so what HELP teaches is
exactly what the parser accepts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from pbem.games.bigtime import actions as bigtime
from pbem.games.showmanager import actions as showmanager
from pbem.orders.absence import Away
from pbem.orders.words import Problem, Words

CommandName = Literal["HELP", "STATUS", "HISTORY", "RESIGN", "BACK"]


@dataclass(frozen=True)
class Command:
    """A request any time, in either game: HELP, STATUS, HISTORY, RESIGN or BACK."""

    name: CommandName


@dataclass(frozen=True)
class Password:
    """PASSWORD <secret>: the seat's secret, for mail clients that drop the reply address."""

    secret: str


# What a reply quotes of a PASSWORD line in place of the secret (`PASSWORD ·····`): a reply may
# be forwarded. Always five dots, so not even the secret's length is told.
SECRET_SHOWN = "·····"


@dataclass(frozen=True)
class Talk:
    """SAY <text>, or SAY TO <name> <text>: table talk for the other players, never an order.

    `to` is the word after TO as written (a player's name or seat number), None for everyone;
    the moderator matches it to a seat. Empty `text` on a SAY line opens a block that a line END
    closes (parse.py), whose lines become the text.
    """

    text: str
    to: str | None = None


# Whatever is not a move in the game: the commands, read by the moderator rather than the engine.
AnyCommand = Command | Password | Away
Order = showmanager.Action | bigtime.Action | AnyCommand | Talk
Reader = Callable[[Words], Sequence[Order] | Problem]


@dataclass(frozen=True)
class OrderForm:
    """One order word: how to write it (`forms`), examples, what it does, how to read it.

    `chatter`: the order takes no arguments and whatever follows its word is chatter, not part of
    it (`status please`, `HELP me`); `read` itself stays strict, for judging typos (parse.py).
    `verbatim`: the order takes the rest of its line as written, not as words (talk), so no
    line is ever read as a misspelling of it: "Way to go!" is chatter, not a typo of SAY.
    """

    word: str
    forms: tuple[str, ...]
    examples: tuple[str, ...]
    meaning: str
    read: Reader
    chatter: bool = False
    verbatim: bool = False


@dataclass(frozen=True)
class Grammar:
    """A game's orders and the commands, plus the names and notes HELP prints."""

    game: str
    title: str
    orders: tuple[OrderForm, ...]
    commands: tuple[OrderForm, ...]
    notes: tuple[str, ...] = ()
    names: tuple[tuple[str, str], ...] = ()  # (what, the names) for HELP, in the game's theme

    def form(self, word: str) -> OrderForm | None:
        """The order or command `word` is (any case), or None."""
        wanted = word.upper()
        return next((form for form in self.forms if form.word == wanted), None)

    @property
    def forms(self) -> tuple[OrderForm, ...]:
        return (*self.orders, *self.commands)
