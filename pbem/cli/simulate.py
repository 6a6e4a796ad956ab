"""Random legal play: whole games between uniform random players, for tests and benchmarks."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pbem.games.base import NewGame, RulesEngine
from pbem.games.rng import Rng

MAX_EMAILS_PER_GAME = 100_000  # a game that runs longer than this is a bug in an engine


class SimulationError(ValueError):
    """A simulation that cannot be run as asked; the message names the value and the choices."""


def check_simulation(engine: RulesEngine[Any, Any], variant: str, players: int, games: int) -> None:
    """The variant, player count and number of games, checked before the first game starts."""
    if variant not in engine.variants:
        raise SimulationError(
            f"{engine.name} has no variant {variant!r}: choose {', '.join(engine.variants)}"
        )
    if games < 1:
        raise SimulationError(f"--games {games}: play at least 1 game")
    try:
        engine.new_game(NewGame(players, variant, 0))
    except ValueError as exc:  # each engine says which player counts the variant is for
        raise SimulationError(str(exc)) from exc


@dataclass(frozen=True)
class SimulationReport:
    game: str
    variant: str
    players: int
    games: int
    finished: int
    seconds: float

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    def as_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "variant": self.variant,
            "players": self.players,
            "games": self.games,
            "finished": self.finished,
            "seconds": round(self.seconds, 4),
            "games_per_second": round(self.games_per_second, 1),
        }


def play_random_emails(engine: RulesEngine[Any, Any], state: Any, rng: Rng, emails: int) -> int:
    """Up to `emails` uniformly random legal emails, applied in place; how many were sent
    (fewer when the game ends first)."""
    # Looked up once: a random game sends dozens of emails of a few actions each (issue 14).
    awaiting, random_actions, apply = engine.awaiting, engine.random_actions, engine.apply
    for sent in range(emails):
        seats = awaiting(state)
        if not seats:
            return sent
        seat = seats[0]
        for action in random_actions(state, seat, rng):
            apply(state, seat, action)
    return emails


def play_random_game(engine: RulesEngine[Any, Any], spec: NewGame) -> Any:
    """Play one game to its end with every seat choosing uniformly among legal emails."""
    state = engine.new_game(spec)
    rng = Rng.from_seed(spec.seed ^ 0x5EED)
    if play_random_emails(engine, state, rng, MAX_EMAILS_PER_GAME) == MAX_EMAILS_PER_GAME:
        raise RuntimeError(f"{engine.name} game with seed {spec.seed} did not end")
    return state


def simulate(
    engine: RulesEngine[Any, Any],
    variant: str,
    players: int,
    games: int,
    seed: int,
    progress: Callable[[], None] | None = None,
) -> SimulationReport:
    finished = 0
    start = time.perf_counter()
    for index in range(games):
        state = play_random_game(engine, NewGame(players, variant, seed + index))
        finished += engine.is_over(state)
        if progress is not None:
            progress()
    return SimulationReport(
        engine.name, variant, players, games, finished, time.perf_counter() - start
    )
