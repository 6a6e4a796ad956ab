"""Casting: which card plays which role, and what the production is worth.

A card scores its talent for its role, 0 when miscast; a provincial actor scores the provincial
value anywhere and is never miscast; with no one miscast the production earns a bonus equal to its
number of roles. The player names the cards (and may fix some roles); the rest is cast to make the
total, bonus included, as high as it can be.

Provincial actors and miscast cards can fill any role, so the search only decides which talented
cards take a role they have a talent for: a depth-first search over those few options per card,
cut off when even the best remaining talents could not beat the best casting found.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.games.base import record
from pbem.games.showmanager.components import Components

MISCAST = -1
OPEN = -1  # a role no card plays yet


@record  # made for every staging and every option a computer player weighs
class Casting:
    cast: tuple[int, ...]  # the card playing each role, in cast-list order
    value: int  # bonus included
    bonus: int


def best_casting(
    data: Components, musical: int, cards: Sequence[int], fixed: Mapping[int, int] | None = None
) -> Casting:
    """The best casting of `cards` (one per role) with the roles in `fixed` (card -> role) kept."""
    roles = data.role_counts[musical]
    points = data.points[musical]
    cast = [OPEN] * roles
    used = 0
    base = 0
    fixed_fit = True
    for card, role in (fixed or {}).items():
        cast[role] = card
        used |= 1 << role
        base += points[card][role]
        fixed_fit = fixed_fit and data.fits(musical, card, role)
    fillers: list[int] = []  # cards taking whichever roles are left: provincials, the miscast
    talented: list[int] = []
    options: list[tuple[tuple[int, int], ...]] = []
    all_fit = fixed_fit
    table = data.talents[musical]
    provincials = data.provincials
    for card in cards:
        if fixed and card in fixed:
            continue
        if card in provincials:
            fillers.append(card)
            base += data.provincial_value
            continue
        playable = tuple(o for o in table[card] if not used >> o[0] & 1) if used else table[card]
        if playable:
            talented.append(card)
            options.append(playable)
        else:
            fillers.append(card)
            all_fit = False
    total, picks = _search(options, used, roles if all_fit else 0)
    for card, role in zip(talented, picks, strict=True):
        if role == MISCAST:
            fillers.append(card)
        else:
            cast[role] = card
    if fillers:
        open_roles = [role for role in range(roles) if cast[role] == OPEN]
        for role, card in zip(open_roles, fillers, strict=True):
            cast[role] = card
    bonus = roles if all_fit and MISCAST not in picks else 0
    return Casting(tuple(cast), base + total, bonus)


def _search(
    options: list[tuple[tuple[int, int], ...]], used: int, bonus: int
) -> tuple[int, list[int]]:
    """The highest talent sum plus `bonus` if no card is miscast, and each card's role.

    Every card has at least one option, best first, so the first leaf is the greedy casting.
    """
    greedy = [playable[0][0] for playable in options]
    if len(set(greedy)) == len(greedy):
        # No two cards want the same role: every card plays its best, which nothing can beat
        # (and the search would keep this first leaf). Most castings of random hands are so.
        return sum([playable[0][1] for playable in options]) + bonus, greedy
    n = len(options)
    ceiling = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        ceiling[i] = ceiling[i + 1] + options[i][0][1]
    picks = [MISCAST] * n
    best_score = -1
    best_picks = picks

    def visit(i: int, taken: int, total: int, fit: bool) -> None:
        nonlocal best_score, best_picks
        if total + ceiling[i] + (bonus if fit else 0) <= best_score:
            return
        if i == n:
            best_score = total + (bonus if fit else 0)
            best_picks = picks.copy()
            return
        for role, points in options[i]:
            bit = 1 << role
            if not taken & bit:
                picks[i] = role
                visit(i + 1, taken | bit, total + points, fit)
        picks[i] = MISCAST
        visit(i + 1, taken, total, False)

    visit(0, used, 0, True)
    return best_score, best_picks
