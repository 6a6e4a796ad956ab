"""Tournaments between computer players of chosen levels: `pbem simulate --seats ...`.

Game k is played with seed + k and the seats' levels turned k places round the table, so every
level plays from every seat equally often (the first player, and in The Big Time! the starting
reviews, are dealt by the seed). Each computer player decides from its seat's view alone.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pbem.cli.simulate import MAX_EMAILS_PER_GAME
from pbem.games.base import NewGame
from pbem.games.levels import computer_player
from pbem.games.registry import engine_for
from pbem.games.rng import Rng
from pbem.games.search import Budget, winners


@dataclass(frozen=True)
class Timing:
    median_ms: float
    p95_ms: float
    decisions: int

    @classmethod
    def of(cls, seconds: Sequence[float]) -> Timing:
        if not seconds:
            return cls(0.0, 0.0, 0)
        ordered = sorted(seconds)
        p95 = ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]
        return cls(statistics.median(ordered) * 1000, p95 * 1000, len(ordered))

    def as_json(self) -> dict[str, float]:
        return {
            "median": round(self.median_ms, 2),
            "p95": round(self.p95_ms, 2),
            "decisions": self.decisions,
        }


@dataclass(frozen=True)
class TournamentReport:
    game: str
    variant: str
    seats: tuple[str, ...]
    games: int
    seed: int
    wins: dict[str, float]  # by level; a tie at the top is shared
    timings: dict[str, Timing]  # by level
    seconds: float

    def as_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "variant": self.variant,
            "players": len(self.seats),
            "seats": list(self.seats),
            "games": self.games,
            "seed": self.seed,
            "wins": self.wins,
            "win_rate": {level: round(won / self.games, 4) for level, won in self.wins.items()},
            "decision_ms": {level: timing.as_json() for level, timing in self.timings.items()},
            "seconds": round(self.seconds, 2),
        }


def tournament(
    game: str,
    variant: str,
    seats: Sequence[str],
    games: int,
    seed: int,
    budget: Budget | None = None,
    progress: Callable[[], None] | None = None,
) -> TournamentReport:
    """`games` games between computer players of the levels `seats` (one per seat, in order)."""
    engine = engine_for(game)
    levels = tuple(dict.fromkeys(seats))
    wins = dict.fromkeys(levels, 0.0)
    decisions: dict[str, list[float]] = {level: [] for level in levels}
    start = time.perf_counter()
    for index in range(games):
        state = engine.new_game(NewGame(len(seats), variant, seed + index))
        turned = [seats[(position + index) % len(seats)] for position in range(len(seats))]
        players = [computer_player(game, level, state.data, budget) for level in turned]
        dice = Rng.from_seed((seed + index) ^ 0x70E)
        for _ in range(MAX_EMAILS_PER_GAME):
            waiting = engine.awaiting(state)
            if not waiting:
                break
            seat = waiting[0]
            before = time.perf_counter()
            actions = players[seat](engine.view(state, seat), dice)
            decisions[turned[seat]].append(time.perf_counter() - before)
            submitted = engine.submit(state, seat, actions)
            if submitted.state is None:  # a computer player's order is always legal
                raise RuntimeError(f"{game} {turned[seat]} order refused: {submitted.refusal}")
            state = submitted.state
        else:
            raise RuntimeError(f"{game} game with seed {seed + index} did not end")
        for seat, share in winners(engine.outcome(state)).items():
            wins[turned[seat]] += share
        if progress is not None:
            progress()
    return TournamentReport(
        game,
        variant,
        tuple(seats),
        games,
        seed,
        wins,
        {level: Timing.of(times) for level, times in decisions.items()},
        time.perf_counter() - start,
    )
