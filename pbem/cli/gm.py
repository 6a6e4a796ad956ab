"""`pbem gm ...`: the game master's overrides on the command line (never by email)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import typer

from pbem.moderator import gm
from pbem.moderator.desk import Desk
from pbem.settings import SettingsError, load_settings
from pbem.store import StoreError, connect_database, session_scope

gm_app = typer.Typer(
    help="Game-master overrides; each is recorded in the history and told to the players.",
    pretty_exceptions_show_locals=False,
)

WHY = typer.Option(None, "--why", help="Why: recorded in the history and told to the players.")


@contextmanager
def _desk() -> Iterator[Desk]:
    """One transaction on the configured database; a refused override is one line and exit 1."""
    try:
        settings = load_settings()
        engine = connect_database(settings.database_url, create=False)
        with session_scope(engine) as session:
            yield Desk(session, settings)
    except (gm.GmError, SettingsError, StoreError) as exc:
        typer.echo(f"Error: {exc}", err=True)
        raise typer.Exit(1) from exc


@gm_app.command()
def order(
    game: str,
    orders: str,
    as_: str = typer.Option(..., "--as"),
    why: str | None = WHY,
) -> None:
    """Enter orders for a player, as if they had sent them."""
    with _desk() as desk:
        gm.order(desk, game, as_, orders, why)
    typer.echo(f"{game}: orders entered for {as_}")


@gm_app.command()
def undo(
    game: str,
    to: int | None = typer.Option(None, "--to"),
    why: str | None = WHY,
) -> None:
    """Go back to the state after history entry N (default: the one before the last)."""
    with _desk() as desk:
        target = gm.undo(desk, game, to, why)
    typer.echo(f"{game}: back to history entry {target}")


@gm_app.command("set-money")
def set_money(game: str, player: str, amount: int, why: str | None = WHY) -> None:
    """Set a player's money (Show Manager, thousands)."""
    with _desk() as desk:
        gm.set_money(desk, game, player, amount, why)
    typer.echo(f"{game}: money of {player} set to {amount}")


@gm_app.command("set-value")
def set_value(game: str, player: str, production: str, value: int, why: str | None = WHY) -> None:
    """Set the value of a player's chip, e.g. WOLF#1 12 (it is re-ranked in its city)."""
    with _desk() as desk:
        gm.set_value(desk, game, player, production, value, why)
    typer.echo(f"{game}: {player}'s {production} set to {value}")


@gm_app.command()
def replace(game: str, old: str, new: str, why: str | None = WHY) -> None:
    """Give a seat a new address (and a new secret)."""
    with _desk() as desk:
        gm.replace(desk, game, old, new, why)
    typer.echo(f"{game}: {old} replaced by {new}")


@gm_app.command()
def remove(game: str, player: str, why: str | None = WHY) -> None:
    """Remove a player; a computer player takes the seat."""
    with _desk() as desk:
        gm.remove(desk, game, player, why)
    typer.echo(f"{game}: {player} removed")


@gm_app.command()
def pause(game: str, why: str | None = WHY) -> None:
    """Stop taking orders until resumed."""
    with _desk() as desk:
        gm.pause(desk, game, why)
    typer.echo(f"{game}: paused")


@gm_app.command()
def resume(game: str, why: str | None = WHY) -> None:
    """Take orders again."""
    with _desk() as desk:
        gm.pause(desk, game, why, resume_it=True)
    typer.echo(f"{game}: resumed")


@gm_app.command()
def deadline(
    game: str,
    hours: float | None = typer.Argument(None),
    policy: str | None = typer.Option(None, help="wait, default or skip"),
    why: str | None = WHY,
) -> None:
    """Set the deadline of each turn or phase in hours (none: no deadline)."""
    with _desk() as desk:
        gm.deadline(desk, game, hours, policy, why)
    typer.echo(f"{game}: deadline {hours} h")


@gm_app.command()
def resend(game: str, player: str | None = typer.Argument(None), why: str | None = WHY) -> None:
    """Send the status email again, to one player or to all."""
    with _desk() as desk:
        gm.resend(desk, game, player, why)
    typer.echo(f"{game}: status resent")
