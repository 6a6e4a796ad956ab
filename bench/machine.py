"""How fast this machine runs Python at the moment: a fixed pure-Python workload, timed.

The machines the benchmarks run on share their cores with others, and the same code's figures
have moved by half from one session to the next (docs/benchmarks.md). Printed beside a
benchmark's figures, this time says whether the machine or the code changed: a figure that fell
while the reference time rose by as much is the machine.

    python -m bench.machine
"""

from __future__ import annotations

import time

ROUNDS = 5
ITEMS = 20_000


def _workload() -> int:
    """Work of the kind pbem does most: small objects, dict lookups, string formatting, sorting."""
    table: dict[str, tuple[int, str]] = {}
    for number in range(ITEMS):
        table[f"seat-{number % 97}-{number}"] = (number * 7 % 1013, f"{number:05d}")
    ranked = sorted(table.items(), key=lambda item: (item[1][0], item[0]))
    return sum(len(name) + value for name, (value, _) in ranked)


def reference_ms() -> float:
    """The workload's best time of `ROUNDS`, in milliseconds of this thread's processor time
    (the best, as another process taking the core can only make a round slower)."""
    best = float("inf")
    for _ in range(ROUNDS):
        began = time.thread_time()
        _workload()
        best = min(best, time.thread_time() - began)
    return best * 1000


def describe() -> str:
    return f"machine: reference workload {reference_ms():.1f} ms (python -m bench.machine)"


if __name__ == "__main__":
    print(describe())
