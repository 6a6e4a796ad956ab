"""The most a hand can bring to a musical, and what one more card would add to it.

A hand's *partial castings* are the best points for each set of roles its cards can fill: each
role played by at most one card it fits, cards left out staying in hand. The best of them, with
the full-cast bonus where every role is filled, is the hand's *potential*: the value of the best
staging it could make (`legal.best_stage` stops at the first casting worth that much).

The computer players ask what each card on display, or each card a hidden hand might hold, would
add to the hand. One step from the hand's table answers that for a card, where building the whole
table again for every grown hand made these questions most of a search's rollouts (issue 15).
"""

from __future__ import annotations

import functools

from pbem.games.showmanager.components import Components

# (roles filled, as a bit mask; the most points those roles can score), one per reachable mask
Table = tuple[tuple[int, int], ...]


def potential(data: Components, musical: int, hand: tuple[int, ...]) -> int:
    """The most `hand` (sorted) brings to the musical's roles, full-cast bonus included."""
    return _reach(data, musical, hand)[0]


def added(data: Components, musical: int, hand: tuple[int, ...], card: int) -> int:
    """What `card` adds to the hand's potential: nothing, or the most it brings to a role."""
    most, reach = _reach(data, musical, hand)
    grown = most
    for role, gain in _options(data, musical, card):
        if gain + reach[role] > grown:
            grown = gain + reach[role]
    return grown - most


# The computer players ask about every hand they might hold and every card they might add to it,
# in every rollout of a search: remembered (a hand's table is built once, its answers kept).
@functools.lru_cache(maxsize=1 << 15)
def _reach(data: Components, musical: int, hand: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """The hand's potential, and for each role the most the hand can score with that role left
    open for one more card (the full-cast bonus included where that card would complete it)."""
    roles = data.role_counts[musical]
    full = (1 << roles) - 1
    table = _table(data, musical, hand)
    open_roles = _open_roles(roles)
    most = 0
    reach = [0] * roles  # the empty casting leaves every role open
    for mask, points in table:
        if mask == full:
            most = max(most, points + roles)
            continue
        most = max(most, points)
        for role, completes in open_roles[mask]:
            total = points + roles if completes else points
            if total > reach[role]:
                reach[role] = total
    return most, tuple(reach)


@functools.cache
def _open_roles(roles: int) -> tuple[tuple[tuple[int, bool], ...], ...]:
    """[mask]: each role the mask leaves open, and whether filling it would complete the cast."""
    full = (1 << roles) - 1
    return tuple(
        tuple((role, mask | 1 << role == full) for role in range(roles) if not mask >> role & 1)
        for mask in range(full + 1)
    )


def _table(data: Components, musical: int, hand: tuple[int, ...]) -> Table:
    """The hand's partial castings: the most points for each set of roles its cards can fill."""
    best = {0: 0}
    for card in hand:
        options = _options(data, musical, card)
        grown = dict(best)
        for mask, points in best.items():
            for role, gain in options:
                key = mask | 1 << role
                if key != mask and grown.get(key, -1) < points + gain:
                    grown[key] = points + gain
        best = grown
    return tuple(best.items())


def _options(data: Components, musical: int, card: int) -> tuple[tuple[int, int], ...]:
    """The (role, points) the card can play: a provincial actor any role at the provincial value."""
    if card in data.provincials:
        return _anywhere(data, musical)
    return data.talents[musical][card]


@functools.cache
def _anywhere(data: Components, musical: int) -> tuple[tuple[int, int], ...]:
    return tuple((role, data.provincial_value) for role in range(data.role_counts[musical]))
