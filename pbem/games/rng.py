"""A small seeded random number generator whose whole state is one integer.

Every random draw of a game comes from an `Rng` kept in the game state, so a state serialised to
JSON and back continues with exactly the same draws (OpenSpiel's "chance recorded" idea without
recording each outcome). The generator is splitmix64: tiny, fast in pure Python, and good enough
for shuffling cards.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from dataclasses import dataclass
from typing import TypeVar

_SPAN = 1 << 64
_MASK = _SPAN - 1
_GOLDEN = 0x9E3779B97F4A7C15

T = TypeVar("T")


@dataclass
class Rng:
    """splitmix64; `state` is everything there is to save."""

    state: int

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        return cls(seed & _MASK)

    def next64(self) -> int:
        self.state = z = (self.state + _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n). Rejection sampling keeps it unbiased."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = _SPAN - _SPAN % n
        x = self.next64()
        while x >= limit:  # almost never: only the top 2**64 % n values are redrawn
            x = self.next64()
        return x % n

    def choice(self, items: list[T] | tuple[T, ...]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates, in place."""
        below = self.below  # a whole deck is hundreds of draws: look the method up once
        for i in range(len(items) - 1, 0, -1):
            j = below(i + 1)
            items[i], items[j] = items[j], items[i]

    def fork(self) -> Rng:
        """An independent generator seeded from this one (for bots and simulations)."""
        return Rng(self.next64())
