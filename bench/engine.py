"""Complete random games per second for each engine, on one core.

    python bench/engine.py [--games K]

Targets (issues 2 and 3): 1,000 complete 4-player Show Manager games/s, 2,000 Big Time games/s.
"""

from __future__ import annotations

import argparse

from pbem.games.registry import engine_for
from pbem.simulate import simulate

RUNS = [("showmanager", "standard", n) for n in (2, 4, 6)] + [
    ("bigtime", "standard", n) for n in (2, 3, 4)
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=500)
    args = parser.parse_args()
    for game, variant, players in RUNS:
        report = simulate(engine_for(game), variant, players, args.games, seed=1)
        print(
            f"{game:12} {variant:9} {players} players: {report.games_per_second:9.1f} games/s "
            f"({report.finished}/{report.games} finished, {report.seconds:.2f} s)"
        )


if __name__ == "__main__":
    main()
