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
    cast = [OPEN] * roles
    used = 0
    base = 0
    all_fit = True
    if fixed:
        scores = data.points[musical]
        for card, role in fixed.items():
            cast[role] = card
            used |= 1 << role
            base += scores[card][role]
            all_fit = all_fit and data.fits(musical, card, role)
    fillers: list[int] = []  # cards taking whichever roles are left: provincials, the miscast
    talented: list[int] = []
    options: list[tuple[tuple[int, int], ...]] = []
    greedy: list[int] = []  # each talented card's best role
    greedy_total = 0
    wanted = used  # the roles taken if every talented card plays its best
    clash = False
    table = data.talents[musical]
    provincials = data.provincials
    # Plain loops, no comprehensions or zip(strict=True): each of those costs more than these
    # few cards (a comprehension is a function call of its own before Python 3.12).
    for card in cards:
        if fixed and card in fixed:
            continue
        if card in provincials:
            fillers.append(card)
            base += data.provincial_value
            continue
        playable = tuple(o for o in table[card] if not used >> o[0] & 1) if used else table[card]
        if not playable:
            fillers.append(card)
            all_fit = False
            continue
        talented.append(card)
        options.append(playable)
        role, points = playable[0]
        if wanted >> role & 1:
            clash = True
        wanted |= 1 << role
        greedy.append(role)
        greedy_total += points
    bonus = roles if all_fit else 0
    if clash:
        total, picks = _search(options, used, bonus)
    else:
        # No two cards want the same role: every card plays its best, which nothing can beat
        # (and the search would keep this first leaf). Most castings of random hands are so.
        total, picks = greedy_total + bonus, greedy
    for index, role in enumerate(picks):
        if role == MISCAST:
            fillers.append(talented[index])
        else:
            cast[role] = talented[index]
    if fillers:
        spare = iter(fillers)  # exactly one for each role still open, in order
        for role, card in enumerate(cast):
            if card == OPEN:
                cast[role] = next(spare)
    return Casting(tuple(cast), base + total, bonus if MISCAST not in picks else 0)


def _search(
    options: list[tuple[tuple[int, int], ...]], used: int, bonus: int
) -> tuple[int, list[int]]:
    """The highest talent sum plus `bonus` if no card is miscast, and each card's role.

    A depth-first search: each card tries its options best first, then being miscast, so the
    first leaf is the greedy casting; of equal sums the first found is kept.
    """
    n = len(options)
    ceiling = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        ceiling[i] = ceiling[i + 1] + options[i][0][1]
    picks = [MISCAST] * n
    best_score = -1
    best_picks = picks

    def visit(i: int, taken: int, total: int, fit: bool) -> None:
        """Reached only with a chance to beat the best: each branch is bounded before it is
        entered (the best remaining talents, and the bonus while no card is miscast)."""
        nonlocal best_score, best_picks
        if i == n:
            best_score = total + (bonus if fit else 0)
            best_picks = picks.copy()
            return
        rest = ceiling[i + 1] + (bonus if fit else 0)
        for role, points in options[i]:
            if total + points + rest <= best_score:
                break  # the options are best first: none after this one could do better
            bit = 1 << role
            if not taken & bit:
                picks[i] = role
                visit(i + 1, taken | bit, total + points, fit)
        if total + ceiling[i + 1] > best_score:
            picks[i] = MISCAST
            visit(i + 1, taken, total, False)

    visit(0, used, 0, True)
    return best_score, best_picks
