"""The options of a game's table that `pbem start` and `pbem open` share: the variant, talk,
watchers and absences (issue 13), checked by the moderator (`pbem.moderator.start.check_press`,
`check_away`); and the deadline, read here as a game master types it for those two and for
`pbem gm deadline`."""

from __future__ import annotations

import typer

from pbem.games.registry import GAMES, engine_for
from pbem.moderator.absences import MAX_AWAY_DAYS
from pbem.moderator.start import LONGEST_DEADLINE_HOURS, StartError


def variants_help() -> str:
    """Each game's variants, asked of its engine, so that the help never lists one it lacks."""
    told = "; ".join(f"{game}: {', '.join(engine_for(game).variants)}" for game in GAMES)
    return f"The game's variant ({told})."


VARIANT = typer.Option("standard", help=variants_help())
PRIVATE = typer.Option(
    False, "--private", help="Refuse watchers: nobody but the players follows the game."
)
PRESS = typer.Option(
    "all",
    help="Table talk (SAY): all (SAY TO is private), public (the others see that a "
    "player whispered to another, never what) or none (no talk).",
)
AWAY = typer.Option(
    "default",
    help="A player's absence (AWAY): default (the moderator plays the default orders for "
    "them) or wait (their deadlines wait until they are back).",
)
MAX_AWAY = typer.Option(
    MAX_AWAY_DAYS, help="The days each player may be away in all in this game (0: none)."
)

# Six minutes. A shorter deadline typed by a person is a slip (0.0001 for 1): with the daemon
# running, every turn would be defaulted or skipped almost at once. Only typed deadlines are held
# to it; tests start games through `start_game` with deadlines of seconds to try the alarms.
SHORTEST_DEADLINE_HOURS = 0.1
NO_DEADLINE = ("none", "off")
DEADLINE = typer.Option(
    None,
    help=f"Hours for each turn or phase, from {SHORTEST_DEADLINE_HOURS:g} to "
    f"{LONGEST_DEADLINE_HOURS} (default: none).",
)


def deadline_hours(text: str | None) -> float | None:
    """HOURS as a game master types it (`--deadline`, `pbem gm deadline`): a number from
    SHORTEST_DEADLINE_HOURS to LONGEST_DEADLINE_HOURS, or `none`; None when not given.
    A `StartError` names the value and the accepted ones."""
    if text is None or text.strip().lower() in NO_DEADLINE:
        return None
    try:
        hours = float(text)
    except ValueError:
        hours = float("nan")
    # Written so that nan (typed, or not a number at all) fails it too.
    if not SHORTEST_DEADLINE_HOURS <= hours <= LONGEST_DEADLINE_HOURS:
        raise StartError(
            f"deadline {text!r}: write a number of hours from {SHORTEST_DEADLINE_HOURS:g} to "
            f"{LONGEST_DEADLINE_HOURS}, or none"
        )
    return hours
