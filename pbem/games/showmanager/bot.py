"""A Show Manager computer player that plays to win, from what its seat may see.

It builds one production at a time: the *target* is the remaining musical the hand casts best
for its size. A card on offer is worth what it adds to the best (partial) casting of a remaining
musical, the target's fully and the others' as cards to carry, less its price weighed by how short
money is. It stages when the target's casting is good, when the hand can grow no further, or when
the display offers nothing better; a first production goes to the free city whose points table
pays most for the rank the production can expect. A loan is taken when money is short and a
production can lose the points without losing its place; a refresh when nothing on offer helps.

It reads only public things and its own: the display, the city board, where each musical plays,
whether any card is left to draw, and its own hand, money and productions. Never another hand,
another player's money, or the deck's order.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from math import comb

from pbem.games.rng import Rng
from pbem.games.showmanager import agency, board
from pbem.games.showmanager.actions import Action, Hire, Loan, Refresh, Stage
from pbem.games.showmanager.components import Components
from pbem.games.showmanager.legal import (
    HandRules,
    StageChoice,
    best_stage,
    can_refresh,
    hand_rules,
    loan_open,
    stageable,
)
from pbem.games.showmanager.players import default_actions
from pbem.games.showmanager.potential import added, potential
from pbem.games.showmanager.state import Chip, GameState

GOOD_CASTING = 0.7  # share of a musical's best possible value worth staging at once
FAIR_CASTING = 0.5  # worth staging when the display offers little more
SMALL_GAIN = 2.0  # a hire adding less than this is "nothing useful"
CARRY_WEIGHT = 0.5  # a card for a later production counts half: it may never be played
MONEY_FLOOR = 3  # below this the dearest slot is out of reach: time to borrow
LOAN_POINTS = 4  # borrow no more than this at once
LOAN_MARGIN = 3  # points kept above the next chip down, against productions still to come
REFRESH_RESERVE = 2  # money kept after a refresh


@dataclass(frozen=True)
class Pressure:
    """How much a mark of a slot's price weighs against a point of casting: `base` plus
    `scale` / (money + 2), so each mark weighs more as money runs short."""

    base: float
    scale: float

    def at(self, money: int) -> float:
        return self.base + self.scale / (money + 2)


PRESSURE = Pressure(0.5, 6.0)


def bot_actions(
    state: GameState, seat: int, rng: Rng, pressure: Pressure = PRESSURE
) -> list[Action]:
    """One email's orders for `seat`: maybe a loan, then a refresh (which ends the email, so the
    next email sees the new display) or a hire or a staging. Nothing when it is not its turn.
    `pressure` prices the slots (the strong player's own weighs money less)."""
    if state.turn != seat:
        return []
    rules, hand, target = _hand(state, seat)
    orders: list[Action] = []
    money = state.players[seat].money
    if loan_open(state) and money < MONEY_FLOOR:
        loan = _loan(state, seat)
        if loan is not None:
            orders.append(loan)
            money += loan.points * state.data.loan_marks_per_point
    hires = _hires(state, rules, hand, target, pressure.at(money), money)
    best_gain = max((gain for gain, _ in hires), default=None)
    staging = _staging(state, seat, rules, hand, target, best_gain)
    if staging is not None:
        return [*orders, staging]
    if (
        (best_gain is None or best_gain < SMALL_GAIN)
        and not state.turn_refreshed
        and money >= state.data.refresh_cost + REFRESH_RESERVE
        and can_refresh(state, seat)
    ):
        return [*orders, Refresh()]
    if hires:
        top = max(gain for gain, _ in hires)
        slots = [slot for gain, slot in hires if gain == top]
        return [*orders, Hire(slot=rng.choice(slots))]
    return [*orders, *default_actions(state, seat)]


def best_hire(state: GameState, seat: int, pressure: Pressure = PRESSURE) -> Hire | None:
    """The hire `bot_actions` would make if it neither borrowed, staged nor refreshed (a search
    weighs it against staging now), the highest slot of equal gains where `bot_actions` draws
    one; None when no hire is open."""
    rules, hand, target = _hand(state, seat)
    money = state.players[seat].money
    hires = _hires(state, rules, hand, target, pressure.at(money), money)
    return Hire(slot=max(hires)[1]) if hires else None


def _hand(state: GameState, seat: int) -> tuple[HandRules, tuple[int, ...], int]:
    """What the seat's hire and staging choices start from: the hand's rules, the hand sorted
    and the musical it builds toward (`_target`)."""
    rules = hand_rules(state, seat)
    hand = tuple(sorted(state.players[seat].hand))
    return rules, hand, _target(state.data, rules, hand)


@functools.cache
def best_possible(data: Components, musical: int) -> int:
    """The musical's value with the best card in every role and the full-cast bonus."""
    best = [0] * data.role_counts[musical]
    for options in data.talents[musical].values():
        for role, points in options:
            best[role] = max(best[role], points)
    return sum(best) + data.role_counts[musical]


def _stageable_size(data: Components, rules: HandRules, musical: int, size: int) -> bool:
    """Whether a hand of `size` cards could stage the musical, by hiring more if need be."""
    return size <= data.role_counts[musical] + rules.limit


def _target(data: Components, rules: HandRules, hand: tuple[int, ...]) -> int:
    """The remaining musical the hand is building: the best cast for its size, smallest first."""
    fitting = [m for m in rules.remaining if _stageable_size(data, rules, m, len(hand))]
    return max(
        fitting or rules.remaining,
        key=lambda m: (potential(data, m, hand) / best_possible(data, m), -data.role_counts[m]),
    )


def _hires(
    state: GameState,
    rules: HandRules,
    hand: tuple[int, ...],
    target: int,
    pressure: float,
    money: int,
) -> list[tuple[float, int]]:
    """(worth, slot) of every slot a hand may hire from with `money` (a loan may have added to
    it in the same email), each mark of a slot's price weighing `pressure` points."""
    data = state.data
    if len(hand) >= rules.capacity:
        return []
    weights = [
        (musical, 1.0 if musical == target else CARRY_WEIGHT)
        for musical in rules.remaining
        if _stageable_size(data, rules, musical, len(hand) + 1)
    ]
    hires = []
    for slot in _slots(state, money):
        card = state.display[slot]
        assert card is not None
        gain = 0.0
        for musical, weight in weights:
            gain = max(gain, weight * added(data, musical, hand, card))
        hires.append((gain - pressure * data.slot_costs[slot], slot))
    return hires


def _slots(state: GameState, money: int) -> list[int]:
    """The slots holding a card that `money` pays for."""
    costs = state.data.slot_costs
    return [s for s, card in enumerate(state.display) if card is not None and costs[s] <= money]


def _staging(
    state: GameState,
    seat: int,
    rules: HandRules,
    hand: tuple[int, ...],
    target: int,
    best_gain: float | None,
) -> Stage | None:
    """The staging to send now, if one is good enough or the hand cannot usefully grow."""
    data = state.data
    musicals = stageable(state, seat, rules)
    if not musicals:
        return None
    # A musical's best staging is worth the hand's potential for it: only the staging sent is
    # worked out card by card.
    quality = {m: potential(data, m, hand) / best_possible(data, m) for m in musicals}
    stuck = best_gain is None or not agency.cards_left(state)
    little = best_gain is None or best_gain < SMALL_GAIN
    for m in sorted(musicals, key=lambda m: -quality[m]):
        full = len(hand) >= data.role_counts[m] + rules.limit and m == target
        if (
            quality[m] >= GOOD_CASTING
            or (m == target and little and quality[m] >= FAIR_CASTING)
            or full
            or stuck
        ):
            return _stage_order(state, best_stage(state, seat, m))
    return None


def _stage_order(state: GameState, choice: StageChoice) -> Stage:
    data = state.data
    city = state.musical_city[choice.musical]
    if city is None:
        value = choice.casting.value
        city = max(
            board.free_cities(state),
            key=lambda c: expected_points(state, choice.musical, c, value),
        )
    return Stage(data.musicals[choice.musical].name, choice.cards, data.cities[city].name)


def expected_points(state: GameState, musical: int, city: int, value: int) -> float:
    """What a production worth `value` can expect to score in `city` at the end: ranked below the
    chips there now of equal or higher value, then each production still to come passes it with a
    chance that falls as its casting approaches the best possible."""
    data = state.data
    chips = state.cities[city]
    if state.musical_city[musical] is None:
        values = list(data.touring_values(state.variant, len(state.players), musical))
    else:
        values = [chip.value for chip in chips]
    above = sum(1 for v in values if v >= value)
    to_come = max(0, state.chips_per_musical - len(values) - 1)
    passes = min(0.95, max(0.05, 1 - value / best_possible(data, musical)))
    table = data.cities[city].points
    return sum(
        comb(to_come, k)
        * passes**k
        * (1 - passes) ** (to_come - k)
        * (table[above + k] if above + k < len(table) else 0)
        for k in range(to_come + 1)
    )


def _loan(state: GameState, seat: int) -> Loan | None:
    """A loan on the production that can spare the most points without losing its place."""
    return loan_keeping_rank(state, seat, LOAN_POINTS, LOAN_MARGIN)


def loan_keeping_rank(state: GameState, seat: int, most: int, margin: int) -> Loan | None:
    """The biggest loan, at most `most` points, that one of the seat's productions can take and
    keep its rank with `margin` points to spare (for productions still to come)."""
    best: tuple[int, Chip] | None = None
    for chip in board.loanable(state, seat):
        spare = min(_spare(state, chip, margin), state.data.loan_max_points, most)
        if spare >= 1 and (best is None or spare > best[0]):
            best = (spare, chip)
    if best is None:
        return None
    points, chip = best
    return Loan(state.data.musicals[chip.musical].name, points, chip.number)


def _spare(state: GameState, chip: Chip, margin: int) -> int:
    """Points the chip can lose and keep its rank, with `margin` for productions still to come;
    all of its value when its rank scores nothing anyway."""
    city = state.musical_city[chip.musical]
    assert city is not None
    chips = state.cities[city]
    place = next(i for i, other in enumerate(chips) if other is chip)
    if place >= len(state.data.cities[city].points):
        return chip.value
    below = max((other.value for other in chips[place + 1 :]), default=0)
    return chip.value - below - 1 - margin
