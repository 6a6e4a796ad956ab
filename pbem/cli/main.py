"""The `pbem` command line: a thin layer over the moderator, the engines and the daemon."""

from __future__ import annotations

import dataclasses
import json
import logging
import sys
from functools import partial
from importlib.metadata import version
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import Progress
from rich.table import Table
from sqlmodel import Session, col, select

from pbem.cli.archive import archive
from pbem.cli.auth import auth_app
from pbem.cli.config_check import check_settings
from pbem.cli.database import open_configured
from pbem.cli.db import db_app
from pbem.cli.demo import run_demo
from pbem.cli.game_options import (
    AWAY,
    DEADLINE,
    MAX_AWAY,
    PRESS,
    PRIVATE,
    VARIANT,
    deadline_hours,
)
from pbem.cli.gm import gm_app
from pbem.cli.listings import GameListing, HistoryListing
from pbem.cli.logs import LogFormat, configure_logging
from pbem.cli.outbox import outbox_app
from pbem.cli.replay import TranscriptError, replay
from pbem.cli.show import no_game, show
from pbem.cli.signup import gm_close_command, gm_start_command, open_game
from pbem.cli.simulate import SimulationError, check_simulation
from pbem.cli.simulate import simulate as run_simulation
from pbem.cli.status import status
from pbem.cli.tournament import tournament
from pbem.daemon import Daemon, mail_settings
from pbem.daemon.sending import SendingProcessDied
from pbem.games.levels import LEVELS
from pbem.games.registry import GAMES, UnknownGame, engine_for
from pbem.mail.errors import MailConfigError, MailError
from pbem.moderator.desk import Desk
from pbem.moderator.seats import events_of, undone_entries
from pbem.moderator.signup_letters import seats_words
from pbem.moderator.start import GameRequest, PlayerSpec, StartError, start_game
from pbem.store import (
    GameRow,
    last_history,
    seats_of,
    session_scope,
    signup_players,
    signups_with_status,
)

app = typer.Typer(
    help="pbem: a play-by-email moderator.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
)


@app.command()
def simulate(
    game: str = typer.Argument(..., help=f"One of: {', '.join(GAMES)}"),
    variant: str = typer.Option("standard", help="The game's variant."),
    players: int = typer.Option(4, help="Number of players."),
    games: int = typer.Option(100, help="How many games to play."),
    seed: int = typer.Option(1, help="Seed of the first game; game k uses seed + k."),
    seats: str | None = typer.Option(
        None,
        "--seats",
        help="Computer players' levels, one per seat (e.g. strong,sensible,sensible,sensible), "
        "turned round the table from game to game; without it, random legal players.",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """Play complete games between random legal players and report how many finished; with
    --seats, a tournament between computer players: each level's wins and decision times."""
    try:
        engine = engine_for(game)
        check_simulation(engine, variant, players, games)
    except (UnknownGame, SimulationError) as exc:
        typer.echo(f"Error: {exc}", err=True)
        raise typer.Exit(2) from exc
    if seats is not None:
        _tournament(game, variant, players, _seat_levels(seats, players), games, seed, as_json)
        return
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


def _seat_levels(text: str, players: int) -> list[str]:
    levels = [level.strip() for level in text.split(",")]
    for level in levels:
        if level not in LEVELS:
            typer.echo(
                f"Error: --seats: {level!r} is not a level; choose from {', '.join(LEVELS)}",
                err=True,
            )
            raise typer.Exit(2)
    if len(levels) != players:
        typer.echo(
            f"Error: --seats names {len(levels)} levels but --players is {players}: "
            f"name one level per seat",
            err=True,
        )
        raise typer.Exit(2)
    return levels


def _tournament(
    game: str, variant: str, players: int, levels: list[str], games: int, seed: int, as_json: bool
) -> None:
    try:
        if sys.stderr.isatty() and not as_json:
            with Progress(transient=True) as bar:
                task = bar.add_task(f"{game} {','.join(levels)}", total=games)
                report = tournament(
                    game, variant, levels, games, seed, progress=lambda: bar.advance(task)
                )
        else:
            report = tournament(game, variant, levels, games, seed)
    except ValueError as exc:  # the engine's refusal of the set-up, e.g. the player count
        typer.echo(f"Error: {exc}", err=True)
        raise typer.Exit(2) from exc
    data = report.as_json()
    if as_json:
        typer.echo(json.dumps(data))
        return
    typer.echo(
        f"{games} {game} ({variant}, {players} players) games in {data['seconds']} s, "
        f"seats {','.join(levels)} turned round the table:"
    )
    for level, won in data["wins"].items():
        timing = data["decision_ms"][level]
        typer.echo(
            f"  {level:9} won {won:g} ({data['win_rate'][level]:.1%}); decisions "
            f"{timing['median']} ms median, {timing['p95']} ms at the 95th percentile"
        )


gm_app.command("start")(gm_start_command)
gm_app.command("close")(gm_close_command)
app.add_typer(gm_app, name="gm")
app.command("open")(open_game)
app.add_typer(db_app, name="db")
app.add_typer(auth_app, name="auth")
app.add_typer(outbox_app, name="outbox")
app.command("archive")(archive)
app.command()(show)
app.command()(status)


def _print_version(wanted: bool) -> None:
    if wanted:
        typer.echo(f"pbem {version('pbem')}")
        raise typer.Exit()


@app.callback()
def main(
    show_version: bool = typer.Option(
        False,
        "--version",
        callback=_print_version,
        is_eager=True,
        help="Print pbem's version and exit.",
    ),
) -> None:
    """pbem: a play-by-email moderator."""


@app.command()
def start(
    game: str = typer.Option(..., "--game", help=f"One of: {', '.join(GAMES)}"),
    player: list[str] = typer.Option([], "--player", help="EMAIL or EMAIL:NAME, in seat order."),
    bot: list[str] = typer.Option(
        [],
        "--bot",
        help="A computer player (adds a seat): NAME or NAME:LEVEL, LEVEL one of strong (the "
        "default), sensible or random.",
    ),
    variant: str = VARIANT,
    seed: int | None = typer.Option(None, help="Seed of everything random (default: random)."),
    first_player: str | None = typer.Option(None, help="EMAIL of the first player (Show Manager)."),
    data: Path | None = typer.Option(
        None, "--data", exists=True, dir_okay=False, help="Your own component data file."
    ),
    deadline: str | None = DEADLINE,
    policy: str = typer.Option("wait", help="At a deadline: wait, default or skip."),
    private: bool = PRIVATE,
    press: str = PRESS,
    away: str = AWAY,
    max_away_days: int = MAX_AWAY,
) -> None:
    """Start a game: queue the welcome and first status mails, print the game id."""
    engine, settings = open_configured(create=True)
    try:
        players = [PlayerSpec.parse(text) for text in player] + [
            PlayerSpec.computer(text) for text in bot
        ]
        request = GameRequest(
            game=game,
            players=tuple(players),
            variant=variant,
            seed=seed,
            first_player=first_player,
            data_file=data,
            deadline_hours=deadline_hours(deadline),
            policy=policy,  # type: ignore[arg-type]
            private=private,
            press=press,  # type: ignore[arg-type]
            away_mode=away,  # type: ignore[arg-type]
            max_away_days=max_away_days,
        )
        with session_scope(engine) as session:
            loaded = start_game(Desk(session, settings), request)
    except (StartError, UnknownGame) as exc:
        typer.echo(f"Error: {exc}", err=True)
        raise typer.Exit(2) from exc
    typer.echo(loaded.id)


@app.command()
def games(as_json: bool = typer.Option(False, "--json", help="Print a JSON list.")) -> None:
    """List the games in the database, and the games open for sign-up."""
    engine, _ = open_configured(create=False)
    with Session(engine) as session:
        rows = [
            GameListing(
                id=row.id,
                game=row.game,
                variant=row.variant,
                status=row.status,
                players=len(seats_of(session, row.id)),
                started=row.created_at.strftime("%Y-%m-%d %H:%M"),
            )
            for row in session.exec(select(GameRow).order_by(col(GameRow.created_at))).all()
        ] + [
            GameListing(
                id=row.id,
                game=row.game,
                variant=row.variant,
                status=f"open ({seats_words(row)} seats)",
                players=len(signup_players(session, row.id)),
                started="",
            )
            for row in signups_with_status(session, "open")
        ]
    if as_json:
        typer.echo(json.dumps([dataclasses.asdict(row) for row in rows]))
        return
    table = Table("game", "kind", "variant", "status", "players", "started")
    for listing in rows:
        table.add_row(*(str(value) for value in dataclasses.astuple(listing)))
    Console().print(table)


@app.command()
def history(
    game: str, as_json: bool = typer.Option(False, "--json", help="Print a JSON list.")
) -> None:
    """Every accepted order and override of a game, in order."""
    engine, _ = open_configured(create=False)
    with Session(engine) as session:
        if session.get(GameRow, game) is None:
            typer.echo(f"Error: {no_game(session, game)}", err=True)
            raise typer.Exit(1)
        rows = last_history(session, game, limit=1_000_000)
        undone = undone_entries([(row, events_of(row)) for row in rows])
        entries = [
            HistoryListing(
                seq=entry.seq,
                at=entry.at.strftime("%Y-%m-%d %H:%M:%S"),
                actor=entry.actor,
                kind=entry.kind,
                summary=entry.summary,
                why=entry.why,
                undone=entry.seq in undone,
            )
            for entry in rows
        ]
    if as_json:
        typer.echo(json.dumps([dataclasses.asdict(entry) for entry in entries]))
        return
    table = Table("#", "when", "who", "what", "why")
    for entry in entries:
        # Marked as the players' HISTORY marks it: a later undo went back past it. Escaped, as
        # Rich would read "[undone]" (or brackets a player wrote) as its own markup and drop it.
        what = f"{entry.summary} [undone]" if entry.undone else entry.summary
        table.add_row(str(entry.seq), entry.at, entry.actor, escape(what), escape(entry.why or ""))
    Console().print(table)


@app.command("replay")
def replay_command(
    transcript: Path = typer.Argument(..., exists=True, dir_okay=False),
    as_json: bool = typer.Option(False, "--json", help="Print REPLAY.md's JSON."),
) -> None:
    """Play a transcript through the moderator; exit 1 when its `expect` does not hold."""
    try:
        result = replay(transcript)
    except TranscriptError as exc:
        typer.echo(f"Error: {exc}", err=True)
        raise typer.Exit(1) from exc
    if as_json:
        typer.echo(json.dumps(result.summary))
    else:
        summary = result.summary
        typer.echo(
            f"{summary['game']} ({summary['variant']}): finished={summary['finished']} "
            f"winner={summary['winner']} rejected={summary['rejected']} "
            f"replies={summary['replies']}"
        )
    for problem in result.mismatches:
        typer.echo(problem, err=True)
    if result.mismatches:
        raise typer.Exit(1)


@app.command()
def run(
    once: bool = typer.Option(False, "--once", help="One intake, deadline and send cycle; exit."),
    gm: str | None = typer.Option(None, "--gm", help="Who hears of set-aside mail and deadlines."),
    wait: float = typer.Option(
        300.0, min=0.0, max=86400.0, help="Seconds to wait for new mail between cycles."
    ),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Log at DEBUG level."),
    name: str = typer.Option(
        "pbem", help="This daemon's name: each daemon sharing a database needs its own."
    ),
    log_format: LogFormat = typer.Option(
        LogFormat.text, "--log-format", help="text (journald-aware) or json, one object a line."
    ),
) -> None:
    """The mail daemon in the foreground: take in mail, answer, send the outbox; SIGTERM stops.

    With --once: exit 1 when a mail server could not be reached or refused pbem."""
    _, settings = open_configured(create=True)
    try:
        mail_settings(settings)  # a malformed server URL is one line, before any logging
    except MailConfigError as exc:
        typer.echo(f"Error: {exc}", err=True)
        raise typer.Exit(2) from exc
    level = logging.DEBUG if verbose else logging.INFO
    configure_logging(level, log_format)
    try:
        # The sending process logs as this one does (pbem.daemon.sending).
        log_setup = partial(configure_logging, level, log_format)
        daemon = Daemon(settings, gm_address=gm, name=name, log_setup=log_setup)
    except MailError as exc:  # e.g. PBEM_MAILDIR's inbox is a file, not a Maildir
        typer.echo(f"Error: {exc}", err=True)
        raise typer.Exit(1) from exc
    if not once:
        try:
            daemon.run_forever(wait)
        except SendingProcessDied as exc:  # its own traceback is above: a supervisor restarts
            typer.echo(
                f"Error: {exc}; the daemon stopped (nothing is lost: start it again)", err=True
            )
            raise typer.Exit(1) from exc
        return
    try:
        report = daemon.cycle_once()
    finally:
        daemon.close()
    typer.echo(
        f"received {report.intake.stored}, deadlines acted on {report.deadlines}, "
        f"sent {report.outbox.sent}, deferred {report.outbox.deferred}, "
        f"failed {report.outbox.failed}"
    )
    for failure in report.transport_failures:
        typer.echo(f"Error: {failure}", err=True)
    if report.transport_failures:
        raise typer.Exit(1)


@app.command()
def demo(
    game: str = typer.Option("bigtime", "--game", help=f"One of: {', '.join(GAMES)}"),
    players: int = typer.Option(4, "--players", min=1, help="Number of players."),
    seed: int = typer.Option(1, "--seed", help="Seed of the game."),
) -> None:
    """Play a whole game here, no mail server needed, and show where to read every email."""
    if game not in GAMES:
        raise typer.BadParameter(f"--game must be one of {', '.join(GAMES)}")
    try:
        result = run_demo(game, players, seed, Path.cwd())
    except StartError as exc:
        typer.echo(f"Error: {exc}", err=True)
        raise typer.Exit(2) from exc
    typer.echo(f"Game {result.game_id} finished after {result.cycles} daemon cycles.")
    for line in result.standings:
        typer.echo(line)
    winner = result.outcome.winner
    typer.echo(f"Winner: {result.names[winner]}" if winner is not None else "No single winner.")
    typer.echo(f"{result.emails_sent} emails sent, one file each, in {result.sent_folder}")


config_app = typer.Typer(
    help="Check the configuration.", no_args_is_help=True, pretty_exceptions_show_locals=False
)
app.add_typer(config_app, name="config")


@config_app.command("check")
def config_check(
    probe: bool = typer.Option(
        False, "--probe", help="Also mail the moderator's own plus-address and wait for it."
    ),
    probe_timeout: float = typer.Option(
        120.0, "--probe-timeout", min=1.0, max=3600.0, help="Seconds to wait for the probe."
    ),
) -> None:
    """Validate the settings and connect to the database and the mail servers."""
    problems = 0
    for check in check_settings(probe_timeout=probe_timeout if probe else None):
        mark = "OK  " if check.ok else "FIX "
        typer.echo(f"{mark}{check.what}: {check.detail}")
        problems += not check.ok
    if problems:
        raise typer.Exit(1)


if __name__ == "__main__":
    app()
