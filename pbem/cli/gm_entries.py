"""A transcript's `gm:` entry (REPLAY.md): the words after `pbem gm` and the game id, carried out by
calling the moderator's GM functions directly.

The words are read with the same names, arguments and options as `pbem gm` (pbem/cli/gm.py); the
values are checked by the moderator's GM functions themselves, which both paths call. The bounds
held only against a person's typing (a deadline of at least 0.1 hours, money and values up to
99999) are not applied: a transcript may try the alarms with short deadlines. A malformed entry is
a `GmEntryError`, never a usage screen or an exit.
"""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Callable
from typing import NoReturn

from pbem.cli.game_options import NO_DEADLINE
from pbem.moderator import gm
from pbem.moderator import undo as undoing
from pbem.moderator.desk import Desk
from pbem.store import GameNotFound


class GmEntryError(ValueError):
    """A `gm:` entry that cannot be read or carried out; the message names the entry."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise GmEntryError(message)


def _hours(text: str) -> float | None:
    """HOURS as `pbem gm deadline` reads it: a number, or `none`; gm.deadline checks the range."""
    return None if text.strip().lower() in NO_DEADLINE else float(text)


def _verbs() -> tuple[_Parser, dict[str, Callable[[Desk, str, argparse.Namespace], object]]]:
    parser = _Parser(prog="gm", add_help=False)
    verbs = parser.add_subparsers(dest="verb", required=True, parser_class=_Parser)
    actions: dict[str, Callable[[Desk, str, argparse.Namespace], object]] = {}

    def verb(
        name: str,
        action: Callable[[Desk, str, argparse.Namespace], object],
        *arguments: tuple[str, dict[str, object]],
    ) -> None:
        sub = verbs.add_parser(name, add_help=False)
        for flag, options in arguments:
            sub.add_argument(flag, **options)  # type: ignore[arg-type]
        sub.add_argument("--why", default=None)
        actions[name] = action

    verb(
        "order",
        lambda d, g, a: gm.order(d, g, a.as_, a.orders, a.why),
        ("orders", {}),
        ("--as", {"dest": "as_", "required": True}),
    )
    verb("undo", lambda d, g, a: undoing.undo(d, g, a.to, a.why), ("--to", {"type": int}))
    verb(
        "set-money",
        lambda d, g, a: gm.set_money(d, g, a.player, a.amount, a.why),
        ("player", {}),
        ("amount", {"type": int}),
    )
    verb(
        "set-value",
        lambda d, g, a: gm.set_value(d, g, a.player, a.production, a.value, a.why),
        ("player", {}),
        ("production", {}),
        ("value", {"type": int}),
    )
    verb(
        "replace",
        lambda d, g, a: gm.replace(d, g, a.old, a.new, a.why),
        ("old", {}),
        ("new", {}),
    )
    verb("remove", lambda d, g, a: gm.remove(d, g, a.player, a.why), ("player", {}))
    verb("back", lambda d, g, a: gm.back(d, g, a.player, a.why), ("player", {}))
    verb("pause", lambda d, g, a: gm.pause(d, g, a.why))
    verb("resume", lambda d, g, a: gm.pause(d, g, a.why, resume_it=True))
    verb(
        "deadline",
        lambda d, g, a: gm.deadline(d, g, a.hours, a.policy, a.why),
        ("hours", {"type": _hours}),
        ("--policy", {"default": None}),
    )
    verb(
        "resend",
        lambda d, g, a: gm.resend(d, g, a.player, a.why),
        ("player", {"nargs": "?", "default": None}),
    )
    return parser, actions


def run_gm_entry(desk: Desk, game_id: str, entry: str) -> None:
    """Carry out one `gm:` entry on `game_id`; `GmEntryError` names the entry when it fails."""
    parser, actions = _verbs()
    try:
        words = shlex.split(entry)
    except ValueError as exc:  # an unclosed quote
        raise GmEntryError(f"gm entry {entry!r}: {exc}") from exc
    try:
        if not words:
            raise GmEntryError("the entry is empty")
        arguments = parser.parse_args(words)
        actions[arguments.verb](desk, game_id, arguments)
    except (GmEntryError, gm.GmError, GameNotFound) as exc:
        raise GmEntryError(f"gm entry {entry!r}: {exc}") from exc
