"""Computer players by level, each a function of one seat's view (what its status email shows).

A computer player is never given the game's state, so what its seat may not see cannot reach
it. `random` plays uniformly among legal emails, `sensible` is the engine's heuristic player,
`strong` searches by determinized rollouts (docs/bots.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pbem.games.rng import Rng
from pbem.games.search import Budget

LEVELS = ("strong", "sensible", "random")
# The level of a computer player the game master adds without naming one (`--bot NAME`, a
# sign-up filled with computer players): the strongest, which clears docs/bots.md's bar.
DEFAULT_LEVEL = "strong"
# The level of a seat kept with no level: a seat a player left (resigned or removed), which the
# computer keeps going, and a seat from before levels were kept. The sensible player sends the same
# email for the same dice (the strong one's search depends on the processor time it gets), so a
# transcript with a resignation replays exactly, and a running game's computer players play on
# after an upgrade as they did before it.
CARETAKER_LEVEL = "sensible"

# A computer player: (the seat's view, dice) -> the actions of its email.
ComputerPlayer = Callable[[Any, Rng], list[Any]]


class UnknownLevel(ValueError):
    pass


def check_level(level: str) -> str:
    if level not in LEVELS:
        raise UnknownLevel(f"unknown level {level!r}: choose one of {', '.join(LEVELS)}")
    return level


def computer_player(
    game: str, level: str, data: Any, budget: Budget | None = None
) -> ComputerPlayer:
    """The `level` player of `game`. `data` is the game's component data (the printed rules and
    cards, which every player knows); `budget` bounds the strong player's search (default: the
    game's own, `strong.BUDGET`)."""
    check_level(level)
    if game == "bigtime":
        from pbem.games.bigtime import strong as bigtime

        module: Any = bigtime
    elif game == "showmanager":
        from pbem.games.showmanager import strong as showmanager

        module = showmanager
    else:
        raise ValueError(f"no computer players for {game!r}")
    if level == "strong":
        player: ComputerPlayer = (
            module.StrongPlayer(data) if budget is None else module.StrongPlayer(data, budget)
        )
        return player
    play = module.sensible if level == "sensible" else module.random
    return lambda view, rng: play(view, data, rng)
