"""`pbem gm ...`: the game master's overrides on the command line (never by email).

A player is named by email address, name or seat number. A value that can never be right (a
deadline of -5 hours, an unknown policy) is a usage error, exit 2; an override the game refuses
(an unknown player, an address already seated) exits 1. `--json` prints what changed, or, when
refused, `{game, verb, error}`: a script reads one JSON value on stdout either way.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import typer

from pbem.cli.database import open_configured
from pbem.cli.game_options import deadline_hours
from pbem.moderator import gm, watchers
from pbem.moderator import undo as undoing
from pbem.moderator.desk import Desk
from pbem.moderator.start import (
    PlayerSpec,
    StartError,
    check_address,
    check_deliverable,
    check_policy,
)
from pbem.store import GameNotFound, session_scope

gm_app = typer.Typer(
    help="Game-master overrides; each is recorded in the history and told to the players.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
)

WHY = typer.Option(None, "--why", help="Why: recorded in the history and told to the players.")
JSON = typer.Option(False, "--json", help="Print what changed as one JSON object.")
PLAYER_HELP = "The player: email address, name or seat number (1, 2, ...)."
# The most money or production value a game master sets: five digits fit every column of the
# status that shows them (a production's value is 5 wide), and are a thousand times what games
# see (money starts at 36 thousand, a production is worth well under 100). A 20-digit slip would
# break the status tables.
LARGEST_AMOUNT = 99_999
# A number argument may be negative (`gm deadline sm-1 -5`): it reaches the check that names the
# accepted values, rather than click's "No such option: -5".
NUMBERS = {"ignore_unknown_options": True}


@dataclasses.dataclass(frozen=True)
class Verb:
    """The override asked for, as a refusal printed with `--json` names it."""

    game: str
    verb: str
    as_json: bool


def fail(message: str, code: int, verb: Verb | None = None) -> typer.Exit:
    """One line on stderr, and with `--json` `{game, verb, error}` on stdout (play-testing: a
    refused `gm order --json` printed no JSON); the caller raises the returned Exit (1 refused,
    2 usage)."""
    typer.echo(f"Error: {message}", err=True)
    if verb is not None and verb.as_json:
        typer.echo(json.dumps({"game": verb.game, "verb": verb.verb, "error": message}))
    return typer.Exit(code)


@contextmanager
def _desk(verb: Verb) -> Iterator[Desk]:
    """One transaction on the configured database; a refused override is one line and exit 1."""
    engine, settings = open_configured(create=False)
    try:
        with session_scope(engine) as session:
            yield Desk(session, settings)
    except (gm.GmError, GameNotFound) as exc:
        # `--to abc` is usage, as a deadline of "soon" is; it is read here, by the game's light.
        usage = isinstance(exc, undoing.NotAnEntryNumber)
        raise fail(str(exc), 2 if usage else 1, verb) from exc
    finally:
        engine.dispose()


def _override(verb: Verb, act: Callable[[Desk], gm.Change]) -> None:
    """Carry out one override and print what changed: a line, or JSON for scripts."""
    as_json = verb.as_json
    with _desk(verb) as desk:
        change = act(desk)
    if as_json:
        typer.echo(json.dumps(dataclasses.asdict(change)))
        return
    told = ", ".join(change.told) or "nobody"
    typer.echo(f"{change.game}: {change.summary} (history entry {change.entry}; told {told})")


@gm_app.command()
def order(
    game: str,
    orders: str = typer.Argument(
        ..., help="The orders as the player would write them, one a line: $'BID 3 3\\nAM A1'."
    ),
    as_: str = typer.Option(..., "--as", help=PLAYER_HELP),
    why: str | None = WHY,
    as_json: bool = JSON,
) -> None:
    """Enter orders for a player, as if they had sent them (early orders wait for the turn)."""
    _override(Verb(game, "order", as_json), lambda desk: gm.order(desk, game, as_, orders, why))


@gm_app.command()
def undo(
    game: str,
    # Words, not an int: "abc" is refused naming the game's entries, not by Typer's generic
    # "Input should be a valid integer" (play-testing).
    to: str | None = typer.Option(None, "--to", help="History entry (see `pbem history`)."),
    why: str | None = WHY,
    as_json: bool = JSON,
) -> None:
    """Go back to the state after history entry N (default: before the last change a person made).

    The computer players' orders after it go back too. An undo that would change nothing is
    refused."""
    _override(Verb(game, "undo", as_json), lambda desk: undoing.undo(desk, game, to, why))


@gm_app.command("set-money", context_settings=NUMBERS)
def set_money(
    game: str,
    player: str = typer.Argument(..., help=PLAYER_HELP),
    amount: str = typer.Argument(..., help=f"Thousands, from 0 to {LARGEST_AMOUNT}."),
    why: str | None = WHY,
    as_json: bool = JSON,
) -> None:
    """Set a player's money (Show Manager, thousands)."""
    verb = Verb(game, "set-money", as_json)
    money = _amount("money", amount, verb)
    _override(verb, lambda desk: gm.set_money(desk, game, player, money, why))


@gm_app.command("set-value", context_settings=NUMBERS)
def set_value(
    game: str,
    player: str = typer.Argument(..., help=PLAYER_HELP),
    production: str = typer.Argument(..., help="MUSICAL or MUSICAL#N, e.g. WOLF#1."),
    value: str = typer.Argument(..., help=f"From 0 to {LARGEST_AMOUNT}."),
    why: str | None = WHY,
    as_json: bool = JSON,
) -> None:
    """Set the value of a player's chip, e.g. WOLF#1 12 (it is re-ranked in its city)."""
    verb = Verb(game, "set-value", as_json)
    number = _amount("value", value, verb)
    _override(verb, lambda desk: gm.set_value(desk, game, player, production, number, why))


@gm_app.command()
def replace(
    game: str,
    player: str = typer.Argument(..., help=PLAYER_HELP),
    new: str = typer.Argument(..., help="EMAIL or EMAIL:NAME of the new player."),
    why: str | None = WHY,
    as_json: bool = JSON,
) -> None:
    """Give a seat to another person (new address and secret); everyone is told."""
    verb = Verb(game, "replace", as_json)
    try:
        PlayerSpec.parse(new)
    except StartError as exc:
        raise fail(str(exc), 2, verb) from exc
    _override(verb, lambda desk: gm.replace(desk, game, player, new, why))


@gm_app.command()
def remove(
    game: str,
    player: str = typer.Argument(..., help=PLAYER_HELP),
    why: str | None = WHY,
    as_json: bool = JSON,
) -> None:
    """Remove a player; a computer player takes the seat."""
    _override(Verb(game, "remove", as_json), lambda desk: gm.remove(desk, game, player, why))


@gm_app.command()
def back(
    game: str,
    player: str = typer.Argument(..., help=PLAYER_HELP),
    why: str | None = WHY,
    as_json: bool = JSON,
) -> None:
    """End a player's absence (AWAY) early; everyone is told."""
    _override(Verb(game, "back", as_json), lambda desk: gm.back(desk, game, player, why))


@gm_app.command()
def pause(game: str, why: str | None = WHY, as_json: bool = JSON) -> None:
    """Stop taking orders until resumed."""
    _override(Verb(game, "pause", as_json), lambda desk: gm.pause(desk, game, why))


@gm_app.command()
def resume(game: str, why: str | None = WHY, as_json: bool = JSON) -> None:
    """Take orders again."""
    _override(Verb(game, "resume", as_json), lambda desk: gm.pause(desk, game, why, resume_it=True))


@gm_app.command(context_settings=NUMBERS)
def deadline(
    game: str,
    hours: str = typer.Argument(..., help="Hours for each turn or phase, or `none`."),
    policy: str | None = typer.Option(None, help="At a deadline: wait, default or skip."),
    why: str | None = WHY,
    as_json: bool = JSON,
) -> None:
    """Set the deadline of each turn or phase in hours, from now (`none`: no deadline)."""
    verb = Verb(game, "deadline", as_json)
    try:
        limit = deadline_hours(hours)
        if policy is not None:
            check_policy(policy)
    except StartError as exc:
        raise fail(str(exc), 2, verb) from exc
    _override(verb, lambda desk: gm.deadline(desk, game, limit, policy, why))


def _amount(what: str, text: str, verb: Verb) -> int:
    """Money or a value as typed; one no game takes (-5, 12.5, "abc") is usage, exit 2, as a
    deadline of -5 hours is. Read here, not by Typer, whose "Input should be a valid integer"
    named neither the value nor the range (play-testing)."""
    try:
        number: int | None = int(text.strip())
    except ValueError:
        number = None
    if number is None or not 0 <= number <= LARGEST_AMOUNT:
        shown = repr(text) if number is None else str(number)
        raise fail(f"{what} {shown}: write a number from 0 to {LARGEST_AMOUNT}", 2, verb)
    return number


@gm_app.command()
def resend(
    game: str,
    player: str | None = typer.Argument(None, help=PLAYER_HELP + " Default: every player."),
    why: str | None = WHY,
    as_json: bool = JSON,
) -> None:
    """Send the status email again, to one player or to all."""
    _override(Verb(game, "resend", as_json), lambda desk: gm.resend(desk, game, player, why))


@gm_app.command()
def watch(game: str, email: str, as_json: bool = JSON) -> None:
    """Let EMAIL watch the game: its public status each turn or phase, and the final result."""
    verb = Verb(game, "watch", as_json)
    _watching(verb, email, "watches", lambda desk: watchers.watch(desk, game, email, by_gm=True))


@gm_app.command()
def unwatch(game: str, email: str, as_json: bool = JSON) -> None:
    """Stop EMAIL watching the game."""
    verb = Verb(game, "unwatch", as_json)
    _watching(verb, email, "no longer watches", lambda desk: watchers.unwatch(desk, game, email))


def _watching(
    verb: Verb, email: str, done_words: str, act: Callable[[Desk], watchers.Watching]
) -> None:
    """A watch or unwatch: a bad address is usage (exit 2), a refusal exit 1. It is never in
    the history, which the players read: a watcher's address is kept from them."""
    try:
        check_address(email)
        check_deliverable(email)
    except StartError as exc:
        raise fail(str(exc).replace(" (write EMAIL or EMAIL:NAME)", ""), 2, verb) from exc
    try:
        with _desk(verb) as desk:
            done = act(desk)
    except watchers.WatchError as exc:
        raise fail(str(exc), 1, verb) from exc
    if verb.as_json:
        typer.echo(json.dumps(dataclasses.asdict(done)))
        return
    same = "" if done.changed else " already"
    typer.echo(f"{done.game}: {done.address}{same} {done_words} ({done.watchers} watching)")
