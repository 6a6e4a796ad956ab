"""Computer players: the uniform random player (simulation) and the default orders (deadlines)."""

from __future__ import annotations

import functools
from math import comb

from pbem.games.rng import Rng
from pbem.games.showmanager import board
from pbem.games.showmanager.actions import Action, Hire, Loan, Refresh, Stage
from pbem.games.showmanager.errors import ShowManagerError
from pbem.games.showmanager.legal import (
    best_stage,
    can_refresh,
    hand_rules,
    hire_slots,
    loan_open,
    stageable,
)
from pbem.games.showmanager.state import GameState


def random_actions(state: GameState, seat: int, rng: Rng) -> list[Action]:
    """One legal order: a kind chosen uniformly among the legal kinds, then uniformly within it."""
    loans = board.loanable(state, seat) if loan_open(state) else []
    rules = hand_rules(state, seat)
    slots = hire_slots(state, seat, rules)
    musicals = stageable(state, seat, rules)
    kinds = []
    if loans:
        kinds.append("loan")
    if can_refresh(state, seat):
        kinds.append("refresh")
    if slots:
        kinds.append("hire")
    if musicals:
        kinds.append("stage")
    if not kinds:
        raise ShowManagerError(f"seat {seat} has no legal order")
    kind = rng.choice(kinds)
    if kind == "hire":
        return [_hire(rng.choice(slots))]
    if kind == "stage":
        return [_random_stage(state, seat, musicals, rng)]
    if kind == "refresh":
        return [_REFRESH]
    chip = rng.choice(loans)
    points = 1 + rng.below(min(chip.value, state.data.loan_max_points))
    return [Loan(state.data.musicals[chip.musical].name, points, chip.number)]


_REFRESH = Refresh()


@functools.cache
def _hire(slot: int) -> Hire:
    """Orders are immutable, so the random player reuses them rather than build them each time."""
    return Hire(slot=slot)


def _random_stage(state: GameState, seat: int, musicals: tuple[int, ...], rng: Rng) -> Stage:
    """A staging drawn uniformly over (musical, set of cards, city) without listing them all."""
    hand = state.players[seat].hand
    roles = state.data.role_counts
    free = board.free_cities(state)
    weights = []
    for musical in musicals:
        cities = 1 if state.musical_city[musical] is not None else len(free)
        weights.append(comb(len(hand), roles[musical]) * cities)
    pick = rng.below(sum(weights))
    index = 0
    while pick >= weights[index]:
        pick -= weights[index]
        index += 1
    musical = musicals[index]
    cards = list(hand)
    for _ in range(len(hand) - roles[musical]):
        cards.pop(rng.below(len(cards)))
    home = state.musical_city[musical]
    city = home if home is not None else rng.choice(free)
    return Stage(state.data.musicals[musical].name, tuple(cards), state.data.cities[city].name)


def default_actions(state: GameState, seat: int) -> list[Action]:
    """The orders of a player who sent none: hire a free card; else stage the best production;
    else hire the cheapest card on offer. Nothing when it is not `seat`'s turn."""
    if state.turn != seat:
        return []
    costs = state.data.slot_costs
    slots = sorted(hire_slots(state, seat), key=lambda slot: costs[slot])
    if slots and costs[slots[0]] == 0:
        return [Hire(slot=slots[0])]
    musicals = stageable(state, seat)
    if musicals:
        choice = max((best_stage(state, seat, m) for m in musicals), key=lambda c: c.casting.value)
        name = state.data.musicals[choice.musical].name
        return [Stage(name, choice.cards, state.data.cities[choice.city].name)]
    if slots:
        return [Hire(slot=slots[0])]
    raise ShowManagerError(f"seat {seat} has no legal order")
