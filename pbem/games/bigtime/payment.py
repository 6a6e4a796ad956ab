"""Which act a player picks from a row and which of the bid's cards pay for it (RULINGS.md).

Money cards are few and of few values, so payment searches over how many cards of each value to
use rather than over all subsets, and remembers its answers.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Mapping, Sequence
from functools import lru_cache
from itertools import product

from pbem.games.bigtime.components import Act


@lru_cache(maxsize=4096)
def sub_multisets(cards: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every distinct selection of `cards` (highest first), found by how many of each value."""
    values = sorted(Counter(cards).items(), reverse=True)
    return tuple(
        tuple(card for (card, _), used in zip(values, counts, strict=True) for _ in range(used))
        for counts in product(*(range(count + 1) for _, count in values))
    )


def best_payment(cards: tuple[int, ...], value: int) -> tuple[int, ...]:
    """The cards (highest first) paying at least `value`: least overpayment, then fewest cards,
    then the highest cards. `cards` must be sorted highest first and add up to `value` or more."""
    return _payments_by_value(cards)[value][0]


@lru_cache(maxsize=4096)
def _payments_by_value(
    cards: tuple[int, ...],
) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """For each value from 0 to what `cards` add up to, its best payment and the cards that
    payment leaves (`without`).

    The best payment of a value is the least total at or above it, then the fewest cards, then
    the highest cards: an order that does not depend on the value. So the selections are sorted
    once per hand and each value's payment is the first at or above it. A pick is then one
    look-up by the hand and an index by the value: a cache keyed by (hand, value) hashed both on
    every pick and missed on most new pairs (issue 14)."""
    payments = sorted(
        sub_multisets(cards),
        key=lambda chosen: (sum(chosen), len(chosen), [-card for card in chosen]),
    )
    totals = [sum(payment) for payment in payments]
    by_value = []
    for value in range(totals[-1] + 1):
        payment = payments[bisect_left(totals, value)]
        by_value.append((payment, without(cards, payment)))
    return tuple(by_value)


@lru_cache(maxsize=16384)
def without(cards: tuple[int, ...], spent: tuple[int, ...]) -> tuple[int, ...]:
    """`cards` (highest first) less the cards in `spent`, order kept."""
    left = list(cards)
    for card in spent:
        left.remove(card)
    return tuple(left)


def choose_act(
    row: Sequence[str], acts: Mapping[str, Act], cards: tuple[int, ...], prefs: Sequence[str]
) -> tuple[str, tuple[int, ...], int]:
    """The act taken from `row` with the bid's `cards` (highest first): (card id, paid, penalty).

    The first preference still in the row that the cards pay in full; else the highest-value act
    they pay in full; else the lowest-value act, paid with every card, and a penalty marker for
    the rest. Ties go to the act listed first in the row.
    """
    card, paid, _, penalty = pick_act(row, acts, cards, prefs, sum(cards))
    return card, paid, penalty


def pick_act(
    row: Sequence[str],
    acts: Mapping[str, Act],
    cards: tuple[int, ...],
    prefs: Sequence[str],
    total: int,
) -> tuple[str, tuple[int, ...], tuple[int, ...], int]:
    """`choose_act`'s pick with the cards of the bid left after it: (card id, paid, left,
    penalty); `total` is what the cards add up to, which a Talent Buy has summed already to
    order the picks. A Talent Buy needs both, and a pick is made thousands of times a game
    (issue 14)."""
    for card in prefs:
        if card in row:
            value = acts[card].value
            if value <= total:
                paid, left = _payments_by_value(cards)[value]
                return card, paid, left, 0
    # One pass for both fallbacks.
    dearest = cheapest = row[0]
    dearest_value = cheapest_value = acts[dearest].value
    payable = dearest_value <= total
    for card in row:
        value = acts[card].value
        if value <= total and (not payable or value > dearest_value):
            dearest, dearest_value, payable = card, value, True
        if value < cheapest_value:
            cheapest, cheapest_value = card, value
    if payable:
        paid, left = _payments_by_value(cards)[dearest_value]
        return dearest, paid, left, 0
    return cheapest, cards, (), cheapest_value - total
