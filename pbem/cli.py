"""The `pbem` command line: a thin layer over the moderator, the engines and the daemon."""

from __future__ import annotations

import json
import sys

import typer
from rich.progress import Progress

from pbem.games.registry import GAMES, UnknownGame, engine_for
from pbem.simulate import simulate as run_simulation

app = typer.Typer(help="pbem: a play-by-email moderator.", no_args_is_help=True)


@app.command()
def simulate(
    game: str = typer.Argument(..., help=f"One of: {', '.join(GAMES)}"),
    variant: str = typer.Option("standard", help="The game's variant."),
    players: int = typer.Option(4, help="Number of players."),
    games: int = typer.Option(100, help="How many games to play."),
    seed: int = typer.Option(1, help="Seed of the first game; game k uses seed + k."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """Play complete games between random legal players and report how many finished."""
    try:
        engine = engine_for(game)
    except UnknownGame as exc:
        raise typer.BadParameter(str(exc)) from exc
    if variant not in engine.variants:
        raise typer.BadParameter(f"variant must be one of {', '.join(engine.variants)}")
    if sys.stderr.isatty() and not as_json:
        with Progress(transient=True) as bar:
            task = bar.add_task(f"{game} x{players}", total=games)
            report = run_simulation(
                engine, variant, players, games, seed, lambda: bar.advance(task)
            )
    else:
        report = run_simulation(engine, variant, players, games, seed)
    if as_json:
        typer.echo(json.dumps(report.as_json()))
        return
    data = report.as_json()
    typer.echo(
        f"{data['finished']} of {data['games']} {game} ({variant}, {players} players) games "
        f"finished in {data['seconds']} s: {data['games_per_second']} games/s"
    )
