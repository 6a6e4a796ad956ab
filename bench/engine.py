"""Complete games per second for each engine, on one core: between uniform random players, and
between computer players (with the mean time a bot takes to decide); then the strong computer
player's decision times against three sensible ones.

    python bench/engine.py [--games K] [--repeats R] [--strong-games M] [--random-only]

Targets (issues 2 and 3): 1,000 complete 4-player Show Manager games/s, 2,000 Big Time games/s
(random players). A sensible bot should decide well under 5 ms. Issue 15: a strong decision
takes at most 1 s at the median and 3 s at the 95th percentile, on the clock. The random games'
process time is printed too: on a shared machine it is steadier than the clock (issue 14).

The random games are played `--repeats` times (the same seeded games each time) and the best
run is the figure, as `bench.machine` and `timeit` take theirs: another process taking the core
can only make a run slower. Every run's figure is printed after it.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

from pbem.cli.simulate import simulate
from pbem.cli.tournament import tournament
from pbem.games.base import NewGame
from pbem.games.registry import engine_for
from pbem.games.rng import Rng

# Run as a script, this file's folder is on the path, not the repository's root that bench.machine
# is imported from: the reference is timed in a process of its own.
ROOT = Path(__file__).resolve().parents[1]

RUNS = [("showmanager", "standard", n) for n in (2, 4, 6)] + [
    ("bigtime", "standard", n) for n in (2, 3, 4)
]


def bot_games(game: str, variant: str, players: int, games: int) -> tuple[float, float]:
    """Games per second between bots, and the mean seconds a bot takes per email."""
    engine = engine_for(game)
    deciding, decisions = 0.0, 0
    start = time.perf_counter()
    for seed in range(games):
        state = engine.new_game(NewGame(players, variant, seed))
        rng = Rng.from_seed(seed)
        while seats := engine.awaiting(state):
            before = time.perf_counter()
            actions = engine.bot_actions(state, seats[0], rng)
            deciding += time.perf_counter() - before
            decisions += 1
            outcome = engine.submit(state, seats[0], actions)
            state = outcome.state if outcome.state is not None else state
            if outcome.state is None:  # never expected: the bots' tests say they are legal
                raise RuntimeError(f"{game} bot order refused: {outcome.refusal}")
    return games / (time.perf_counter() - start), deciding / decisions


def random_games(game: str, variant: str, players: int, games: int, repeats: int) -> str:
    """The line for one engine and player count: the best of `repeats` runs of the same games,
    on the clock and in process time, and every run's figure."""
    reports, process_rates = [], []
    for _ in range(repeats):
        cpu = time.process_time()
        reports.append(simulate(engine_for(game), variant, players, games, seed=1))
        process_rates.append(games / (time.process_time() - cpu))
    best = max(reports, key=lambda report: report.games_per_second)
    runs = ", ".join(f"{report.games_per_second:.1f}" for report in reports)
    return (
        f"{game:12} {variant:9} {players} players: {best.games_per_second:9.1f} random "
        f"games/s ({best.finished}/{best.games} finished, {best.seconds:.2f} s; "
        f"{max(process_rates):.1f} games/s of process time; best of {repeats} runs: {runs})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--repeats", type=int, default=3, help="runs of the random games")
    parser.add_argument("--strong-games", type=int, default=4)
    parser.add_argument("--random-only", action="store_true", help="skip the computer players")
    args = parser.parse_args()
    reference = [sys.executable, "-m", "bench.machine"]
    timed = subprocess.run(reference, cwd=ROOT, check=True, capture_output=True, text=True)
    print(timed.stdout.strip())
    for game, variant, players in RUNS:
        line = random_games(game, variant, players, args.games, max(1, args.repeats))
        if not args.random_only:
            per_second, decision = bot_games(game, variant, players, max(1, args.games // 10))
            line += f"; bots {per_second:7.1f} games/s, {decision * 1000:.2f} ms a decision"
        print(line)
    if args.random_only:
        return
    for game in ("bigtime", "showmanager"):
        seats = ["strong", "sensible", "sensible", "sensible"]
        report = tournament(game, "standard", seats, args.strong_games, seed=1)
        timing = report.timings["strong"]
        print(
            f"{game:12} standard  4 players: strong decisions {timing.median_ms:7.1f} ms median, "
            f"{timing.p95_ms:7.1f} ms at the 95th percentile ({timing.decisions} decisions, "
            f"{args.strong_games} games against three sensible players)"
        )


if __name__ == "__main__":
    main()
