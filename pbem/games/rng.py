"""A small seeded random number generator whose whole state is one integer.

Every random draw of a game comes from an `Rng` kept in the game state, so a state serialised to
JSON and back continues with exactly the same draws (OpenSpiel's "chance recorded" idea without
recording each outcome). The generator is splitmix64: tiny, fast in pure Python, and good enough
for shuffling cards.
"""

from __future__ import annotations

import functools
import operator
import struct
from collections.abc import Callable, MutableSequence
from dataclasses import dataclass
from typing import TypeVar

_SPAN = 1 << 64
_MASK = _SPAN - 1
_GOLDEN = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
# No bound below 2**32 rejects a number under this, so most draws need no exact limit.
_NEVER_REJECTED = _SPAN - (1 << 32)

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
        z = ((z ^ (z >> 30)) * _MIX1) & _MASK
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n). Rejection sampling keeps it unbiased."""
        if n == 1:
            # The answer is 0 and no number is rejected: only the state moves on, as a full draw
            # would move it (a fifth of a random Show Manager game's draws are of one choice).
            self.state = (self.state + _GOLDEN) & _MASK
            return 0
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        x = self.next64()
        if x >= _NEVER_REJECTED:
            limit = _SPAN - _SPAN % n
            while x >= limit:  # almost never: only the top 2**64 % n values are redrawn
                x = self.next64()
        return x % n

    def choice(self, items: list[T] | tuple[T, ...]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates, in place: for i from the end down, swap items[i] with items[below(i + 1)].

        The numbers are drawn all at once, exactly those `below` would draw."""
        size = len(items)
        i = size - 1
        for j in self._below_descending(size, i):  # j for i = size - 1, ..., 1
            items[i], items[j] = items[j], items[i]
            i -= 1

    def draw(self, pool: list[T], count: int) -> list[T]:
        """`count` items taken out of `pool` at random: `pool.pop(below(len(pool)))` `count`
        times, as a shuffled deck's top cards, with the numbers drawn all at once."""
        return list(map(pool.pop, self._below_descending(len(pool), count)))

    def _below_descending(self, first: int, count: int) -> list[int]:
        """What `below(first)`, `below(first - 1)`, ... would give, `count` of them in turn, from
        numbers drawn together (`_next_numbers`)."""
        drawn: list[int] = []
        bound = first
        while len(drawn) < count:
            start = self.state
            numbers = self._next_numbers(count - len(drawn))
            if max(numbers) < _NEVER_REJECTED:
                # The usual case: no bound rejects any of them, so each is taken modulo its bound.
                drawn += map(operator.mod, numbers, range(bound, bound - len(numbers), -1))
                break
            for used, x in enumerate(numbers, 1):
                if x >= _NEVER_REJECTED and x >= _SPAN - _SPAN % bound:
                    # `below` would draw again for this bound: the numbers after this are unused.
                    self.state = (start + used * _GOLDEN) & _MASK
                    break
                drawn.append(x % bound)
                bound -= 1
        return drawn

    def _next_numbers(self, count: int) -> tuple[int, ...]:
        """The next `count` numbers `next64` would give, computed together: each in a 128-bit lane
        of one Python integer, where a 64-bit number times a 64-bit constant never carries into
        the next lane. A dozen operations on one long integer instead of a dozen per number."""
        ones, steps, low, unpack = _lanes(count)
        z = (self.state * ones + steps) & low  # lane k: state + (k + 1) * golden
        self.state = (self.state + count * _GOLDEN) & _MASK
        z = (((z ^ (z >> 30)) & low) * _MIX1) & low  # `& low` drops what the shift brought down
        z = (((z ^ (z >> 27)) & low) * _MIX2) & low
        z = (z ^ (z >> 31)) & low
        return unpack(z.to_bytes(16 * count, "little"))

    def fork(self) -> Rng:
        """An independent generator seeded from this one (for bots and simulations)."""
        return Rng(self.next64())


@functools.cache
def _lanes(count: int) -> tuple[int, int, int, Callable[[bytes], tuple[int, ...]]]:
    """For `count` 128-bit lanes: 1 in each lane, (k + 1) * golden in lane k, 2**64 - 1 in each;
    and what reads the low 64 bits of each lane from the lanes' bytes (little-endian), skipping
    the high ones, compiled once."""
    ones = sum(1 << 128 * k for k in range(count))
    steps = sum((k + 1) * _GOLDEN << 128 * k for k in range(count))
    return ones, steps, ones * _MASK, struct.Struct("<" + "Q8x" * count).unpack
