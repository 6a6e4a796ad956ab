"""`pbem gm ...`: the game master's overrides on the command line (never by email)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stdout

import click
import typer
from sqlalchemy import Engine

from pbem.moderator import gm
from pbem.moderator.desk import Desk
from pbem.settings import Settings, load_settings
from pbem.store import GameNotFound, open_database, session_scope

gm_app = typer.Typer(
    help="Game-master overrides; each is recorded in the history and told to the players."
)

WHY = typer.Option(None, "--why", help="Why: recorded in the history and told to the players.")


@contextmanager
def _desk(ctx: typer.Context) -> Iterator[Desk]:
    """The database the caller chose (replay passes its own), else the configured one."""
    target = ctx.obj if isinstance(ctx.obj, tuple) else None
    if target is None:
        settings = load_settings()
        engine = open_database(settings.database_url)
    else:
        engine, settings = target
    try:
        with session_scope(engine) as session:
            yield Desk(session, settings)
    except (gm.GmError, GameNotFound) as exc:
        typer.echo(f"Error: {exc}", err=True)
        raise typer.Exit(1) from exc


@gm_app.command()
def order(
    ctx: typer.Context,
    game: str,
    orders: str,
    as_: str = typer.Option(..., "--as"),
    why: str | None = WHY,
) -> None:
    """Enter orders for a player, as if they had sent them."""
    with _desk(ctx) as desk:
        gm.order(desk, game, as_, orders, why)
    typer.echo(f"{game}: orders entered for {as_}")


@gm_app.command()
def undo(
    ctx: typer.Context,
    game: str,
    to: int | None = typer.Option(None, "--to"),
    why: str | None = WHY,
) -> None:
    """Go back to the state after history entry N (default: the one before the last)."""
    with _desk(ctx) as desk:
        target = gm.undo(desk, game, to, why)
    typer.echo(f"{game}: back to history entry {target}")


@gm_app.command("set-money")
def set_money(
    ctx: typer.Context, game: str, player: str, amount: int, why: str | None = WHY
) -> None:
    """Set a player's money (Show Manager, thousands)."""
    with _desk(ctx) as desk:
        gm.set_money(desk, game, player, amount, why)
    typer.echo(f"{game}: money of {player} set to {amount}")


@gm_app.command("set-value")
def set_value(
    ctx: typer.Context, game: str, player: str, production: str, value: int, why: str | None = WHY
) -> None:
    """Set the value of a player's chip, e.g. WOLF#1 12 (it is re-ranked in its city)."""
    with _desk(ctx) as desk:
        gm.set_value(desk, game, player, production, value, why)
    typer.echo(f"{game}: {player}'s {production} set to {value}")


@gm_app.command()
def replace(ctx: typer.Context, game: str, old: str, new: str, why: str | None = WHY) -> None:
    """Give a seat a new address (and a new secret)."""
    with _desk(ctx) as desk:
        gm.replace(desk, game, old, new, why)
    typer.echo(f"{game}: {old} replaced by {new}")


@gm_app.command()
def remove(ctx: typer.Context, game: str, player: str, why: str | None = WHY) -> None:
    """Remove a player; a computer player takes the seat."""
    with _desk(ctx) as desk:
        gm.remove(desk, game, player, why)
    typer.echo(f"{game}: {player} removed")


@gm_app.command()
def pause(ctx: typer.Context, game: str, why: str | None = WHY) -> None:
    """Stop taking orders until resumed."""
    with _desk(ctx) as desk:
        gm.pause(desk, game, why)
    typer.echo(f"{game}: paused")


@gm_app.command()
def resume(ctx: typer.Context, game: str, why: str | None = WHY) -> None:
    """Take orders again."""
    with _desk(ctx) as desk:
        gm.pause(desk, game, why, resume_it=True)
    typer.echo(f"{game}: resumed")


@gm_app.command()
def deadline(
    ctx: typer.Context,
    game: str,
    hours: float | None = typer.Argument(None),
    policy: str | None = typer.Option(None, help="wait, default or skip"),
    why: str | None = WHY,
) -> None:
    """Set the deadline of each turn or phase in hours (none: no deadline)."""
    with _desk(ctx) as desk:
        gm.deadline(desk, game, hours, policy, why)
    typer.echo(f"{game}: deadline {hours} h")


@gm_app.command()
def resend(
    ctx: typer.Context, game: str, player: str | None = typer.Argument(None), why: str | None = WHY
) -> None:
    """Send the status email again, to one player or to all."""
    with _desk(ctx) as desk:
        gm.resend(desk, game, player)
    typer.echo(f"{game}: status resent")


def run_gm_words(engine: Engine, settings: Settings, words: list[str]) -> None:
    """Run `pbem gm WORDS...` against a given database (used by replay)."""
    command = typer.main.get_command(gm_app)
    try:
        # Replay's stdout carries one JSON object; the command's own words go to stderr.
        with redirect_stdout(sys.stderr):
            command.main(args=words, obj=(engine, settings), standalone_mode=False)
    except click.ClickException as exc:
        raise ValueError(f"gm {' '.join(words)}: {exc.format_message()}") from exc
