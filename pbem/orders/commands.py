"""The commands a player may send any time, in either game (ORDERS.md)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from pbem.orders.absence import EXAMPLES, FORMS, read_away
from pbem.orders.grammar import Command, CommandName, Order, OrderForm, Password, Reader, Talk
from pbem.orders.words import Problem, Words, expect_end

_SECRET_SEPARATORS = re.compile(r"[\s,]+")


def _command(name: CommandName) -> Reader:
    def read(words: Words) -> Sequence[Order] | Problem:
        return expect_end(words) or [Command(name)]

    return read


def _read_resign(words: Words) -> Sequence[Order] | Problem:
    if words.at_end:
        return [Command("RESIGN")]
    return Problem("write RESIGN alone on its line: leaving the game cannot be undone")


def _read_password(words: Words) -> Sequence[Order] | Problem:
    # The secret is read as written (case kept, `#` not split off), not from the split words;
    # `PASSWORD : k7q2m` as well, as the moderator authenticates it (inbound._PASSWORD).
    secret = [
        part for part in _SECRET_SEPARATORS.split(words.rest.strip().removeprefix(":")) if part
    ]
    if len(secret) != 1:
        return Problem("write the secret as one word after PASSWORD")
    return [Password(secret[0])]


def _read_say(words: Words) -> Sequence[Order] | Problem:
    """`SAY text`, `SAY TO Bo text`; `SAY` or `SAY TO Bo` alone opens a block (parse.py)."""
    text = words.rest.strip().removeprefix(":").strip()
    head, _, rest = text.partition(" ")
    if head.upper() != "TO":
        return [Talk(text)]
    name, _, said = rest.strip().partition(" ")
    name = name.rstrip(":,")
    if not name:
        return Problem("write the player's name after SAY TO (SAY TO Ann see you in Köln)")
    return [Talk(said.strip().removeprefix(":").strip(), name)]


def _harmless(name: CommandName, meaning: str) -> OrderForm:
    """A command that changes nothing in the game, so words after it may be chatter."""
    return OrderForm(name, (name,), (name,), meaning, _command(name), chatter=True)


COMMANDS: tuple[OrderForm, ...] = (
    _harmless("HELP", "this text"),
    _harmless("STATUS", "resend your private status"),
    _harmless("HISTORY", "what happened so far"),
    OrderForm(
        "SAY",
        ("SAY <text>", "SAY TO <name> <text>", "SAY ... END"),
        ("SAY good luck, all", "SAY TO Ann shall we work together?"),
        "table talk, not an order. SAY is public: every player reads it, and so does anyone "
        "watching the game or reading its public page. SAY TO one player, by name or seat "
        "number, is private, for that player alone. A line SAY (or SAY TO <name>) alone starts "
        "a message of several lines, ended by a line END",
        _read_say,
        verbatim=True,
    ),
    OrderForm(
        "RESIGN",
        ("RESIGN",),
        ("RESIGN",),
        "leave the game; a computer player takes your seat (RESIGN alone on its line)",
        _read_resign,
    ),
    OrderForm(
        "PASSWORD",
        ("PASSWORD <secret>",),
        ("PASSWORD k7q2m",),
        "your seat's secret, if your mail client dropped the reply address",
        _read_password,
    ),
    OrderForm(
        "AWAY",
        FORMS,
        EXAMPLES,
        "you are away until then, and orders you send still count (what happens to your "
        "turns meanwhile: Absences, at the end)",
        read_away,
    ),
    OrderForm(
        "BACK",
        ("BACK",),
        ("BACK",),
        "you are back before your absence ends",
        _command("BACK"),
        chatter=True,
    ),
)
