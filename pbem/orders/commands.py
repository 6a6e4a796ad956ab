"""The commands a player may send any time, in either game (ORDERS.md)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from pbem.orders.grammar import Command, CommandName, Order, OrderForm, Password, Reader
from pbem.orders.words import Problem, Words, expect_end

_SECRET_SEPARATORS = re.compile(r"[\s,]+")


def _command(name: CommandName) -> Reader:
    def read(words: Words) -> Sequence[Order] | Problem:
        return expect_end(words) or [Command(name)]

    return read


def _read_password(words: Words) -> Sequence[Order] | Problem:
    # The secret is read as written (case kept, `#` not split off), not from the split words.
    secret = [part for part in _SECRET_SEPARATORS.split(words.rest) if part]
    if len(secret) != 1:
        return Problem("write the secret as one word after PASSWORD")
    return [Password(secret[0])]


def _simple(name: CommandName, meaning: str) -> OrderForm:
    return OrderForm(name, (name,), (name,), meaning, _command(name))


COMMANDS: tuple[OrderForm, ...] = (
    _simple("HELP", "this text"),
    _simple("STATUS", "resend your private status"),
    _simple("HISTORY", "what happened so far"),
    _simple("RESIGN", "leave the game; a computer player takes your seat"),
    OrderForm(
        "PASSWORD",
        ("PASSWORD <secret>",),
        ("PASSWORD k7q2m",),
        "your seat's secret, if your mail client dropped the reply address",
        _read_password,
    ),
)
