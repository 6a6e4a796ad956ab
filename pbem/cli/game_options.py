"""The options of a game's table that `pbem start` and `pbem open` share: talk, watchers and
absences (issue 13). Checked by the moderator (`pbem.moderator.start.check_press`, `check_away`)."""

from __future__ import annotations

import typer

from pbem.moderator.absences import MAX_AWAY_DAYS

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
