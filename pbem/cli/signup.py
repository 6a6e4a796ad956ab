"""`pbem open`: a game open for players to sign up by email; `pbem gm start` and `pbem gm close`
end its sign-up early. A value that can never be right is a usage error (exit 2); a sign-up
that cannot be started or closed now exits 1."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from datetime import UTC, datetime

import typer

from pbem.cli.database import open_configured
from pbem.cli.game_options import (
    AWAY,
    DEADLINE,
    MAX_AWAY,
    PRESS,
    PRIVATE,
    VARIANT,
    deadline_hours,
)
from pbem.games.registry import GAMES
from pbem.moderator.absences import MAX_AWAY_DAYS
from pbem.moderator.addresses import join_address
from pbem.moderator.desk import Desk
from pbem.moderator.signup import SignupRequest
from pbem.moderator.signup import open_signup as open_for_signup
from pbem.moderator.signup_start import SignupChange, SignupError, gm_close, gm_start
from pbem.moderator.start import LONGEST_AWAY_CAP, StartError
from pbem.store import session_scope

WHY = typer.Option(None, "--why", help="Why: recorded and told to the players signed up.")
JSON = typer.Option(False, "--json", help="Print the result as one JSON object.")
# Words, not an int: "many" is refused naming the value and the range, where Typer said only
# "Input should be a valid integer" (play-testing). The range is checked by `open_signup`.
MAX_AWAY_DAYS_TYPED = typer.Option(
    str(MAX_AWAY_DAYS),
    "--max-away-days",
    help=MAX_AWAY.help,
)


def _fail(message: str, code: int) -> typer.Exit:
    typer.echo(f"Error: {message}", err=True)
    return typer.Exit(code)


def start_time(text: str) -> datetime:
    """`2026-12-24 18:00` or ISO 8601 with an offset; a time without one is UTC."""
    try:
        at = datetime.fromisoformat(text.strip())
    except ValueError:
        raise _fail(
            f"--start-at {text!r} is not a date and time: write e.g. 2026-12-24 18:00 (UTC)", 2
        ) from None
    return at.replace(tzinfo=UTC) if at.tzinfo is None else at.astimezone(UTC)


def _days(text: str) -> int:
    """`--max-away-days` as typed: a whole number, else one line naming it (exit 2)."""
    try:
        return int(text.strip())
    except ValueError:
        raise _fail(
            f"--max-away-days {text!r} is not a number of days from 0 (no absences) to "
            f"{LONGEST_AWAY_CAP}",
            2,
        ) from None


def open_game(
    game: str = typer.Option(..., "--game", help=f"One of: {', '.join(GAMES)}"),
    variant: str = VARIANT,
    seats: str | None = typer.Option(
        None,
        "--seats",
        help="FEWEST-MOST or N players, e.g. 3-4 (default: all the game allows). Starting when "
        "full (the default), the game waits for MOST; FEWEST counts only at the --start-at "
        "date or with `pbem gm start`.",
    ),
    deadline: str | None = DEADLINE,
    policy: str = typer.Option("wait", help="At a deadline: wait, default or skip."),
    start_when_full: bool = typer.Option(
        False,
        "--start-when-full",
        help="Start as soon as every seat is taken, the MOST of --seats (the default).",
    ),
    start_at: str | None = typer.Option(
        None,
        "--start-at",
        help='Start at this time, in the future: "2026-12-24 18:00" (UTC), or with an offset, '
        '"2026-12-24 18:00+01:00"; with the seats taken then, at least the FEWEST of --seats.',
    ),
    fill_with_bots: bool = typer.Option(
        False,
        "--fill-with-bots",
        help="At the start, computer players fill the seats up to the game's fewest players.",
    ),
    private: bool = PRIVATE,
    press: str = PRESS,
    away: str = AWAY,
    max_away_days: str = MAX_AWAY_DAYS_TYPED,
    as_json: bool = JSON,
) -> None:
    """Open a game for sign-up by email; print its id and join address."""
    if start_when_full and start_at is not None:
        raise _fail("--start-when-full and --start-at: choose one start rule", 2)
    try:
        hours = deadline_hours(deadline)
    except StartError as exc:
        raise _fail(str(exc), 2) from exc
    request = SignupRequest(
        game=game,
        variant=variant,
        seats=seats,
        deadline_hours=hours,
        policy=policy,  # type: ignore[arg-type]  # checked by open_signup
        start_at=start_time(start_at) if start_at is not None else None,
        fill_with_bots=fill_with_bots,
        private=private,
        press=press,  # type: ignore[arg-type]  # checked by open_signup
        away_mode=away,  # type: ignore[arg-type]  # checked by open_signup
        max_away_days=_days(max_away_days),
    )
    engine, settings = open_configured(create=True)
    try:
        with session_scope(engine) as session:
            game_id = open_for_signup(Desk(session, settings), request).id
    except SignupError as exc:
        raise _fail(str(exc), 2) from exc
    finally:
        engine.dispose()
    address = join_address(settings.address, game_id)
    if as_json:
        typer.echo(json.dumps({"id": game_id, "join": address}))
        return
    typer.echo(f"{game_id} {address}")


def _carry_out(as_json: bool, act: Callable[[Desk], SignupChange]) -> None:
    engine, settings = open_configured(create=False)
    try:
        with session_scope(engine) as session:
            change = act(Desk(session, settings))
    except SignupError as exc:
        raise _fail(str(exc), 1) from exc
    finally:
        engine.dispose()
    if as_json:
        typer.echo(json.dumps(dataclasses.asdict(change)))
        return
    told = ", ".join(change.told) or "nobody"
    typer.echo(f"{change.game}: {change.summary} (told {told})")


def gm_start_command(
    game: str,
    fill_with_bots: bool = typer.Option(
        False, "--fill-with-bots", help="Computer players fill up to the game's fewest players."
    ),
    why: str | None = WHY,
    as_json: bool = JSON,
) -> None:
    """Start a game open for sign-up now, with the players signed up."""
    _carry_out(as_json, lambda desk: gm_start(desk, game, why, fill_with_bots))


def gm_close_command(game: str, why: str | None = WHY, as_json: bool = JSON) -> None:
    """Close a game's sign-up without starting it; the players signed up are told."""
    _carry_out(as_json, lambda desk: gm_close(desk, game, why))
