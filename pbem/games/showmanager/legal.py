"""What a player may do now, and example order lines for it (status emails, refusals)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from itertools import combinations
from typing import NamedTuple

from pbem.games.showmanager import agency, board
from pbem.games.showmanager.casting import Casting, best_casting
from pbem.games.showmanager.components import Components
from pbem.games.showmanager.names import city_name, musical_name, order_word
from pbem.games.showmanager.potential import potential
from pbem.games.showmanager.state import GameState

KINDS = ("LOAN", "REFRESH", "HIRE", "STAGE")


@dataclass(frozen=True)
class StageChoice:
    """A complete staging: which musical, which cards, which city, and how they are cast."""

    musical: int
    cards: tuple[int, ...]
    city: int
    casting: Casting


class HandRules(NamedTuple):
    """What a seat's remaining productions allow its hand."""

    remaining: tuple[int, ...]  # musicals with a production still to stage
    limit: int  # cards that may stay in hand after staging: fewer after the last production
    capacity: int  # the most cards it may hold and still stage one of them
    stageable: tuple[tuple[int, ...], ...]  # [k]: the musicals a hand of k cards can stage


def hand_rules(state: GameState, seat: int) -> HandRules:
    staged = state.players[seat].staged
    return _hand_rules(state.data, state.productions_per_musical, tuple(staged))


@functools.cache
def _hand_rules(data: Components, per: int, staged: tuple[int, ...]) -> HandRules:
    """Asked on every order, yet it depends on few things: so it is remembered."""
    remaining = tuple(m for m, n in enumerate(staged) if n < per)
    last = per * len(staged) - sum(staged) == 1
    limit = data.hand_after_last_staging if last else data.hand_after_staging
    counts = data.role_counts
    capacity = max(counts[m] for m in remaining) + limit
    stageable = tuple(
        tuple(m for m in remaining if counts[m] <= held <= counts[m] + limit)
        for held in range(capacity + 1)
    )
    return HandRules(remaining, limit, capacity, stageable)


def loan_open(state: GameState) -> bool:
    """A loan comes first in a turn, and once."""
    return not (state.turn_loaned or state.turn_refreshed)


def can_refresh(state: GameState, seat: int) -> bool:
    return state.players[seat].money >= state.data.refresh_cost and agency.cards_left(state)


def hire_slots(state: GameState, seat: int, rules: HandRules | None = None) -> tuple[int, ...]:
    """The slots the seat may hire from: a card there, affordable, and not leaving it stuck."""
    player = state.players[seat]
    if len(player.hand) >= (rules or hand_rules(state, seat)).capacity:
        return ()
    slots = _affordable(state.data.slot_costs, player.money)
    display = state.display
    if display[-1] is None:  # the cards have run out: the dearest slots are empty
        return tuple([slot for slot in slots if display[slot] is not None])
    return slots


@functools.cache
def _affordable(costs: tuple[int, ...], money: int) -> tuple[int, ...]:
    """The slots `money` pays for. Asked on every order, for a few sums of money: remembered."""
    return tuple(slot for slot, cost in enumerate(costs) if cost <= money)


def stageable(state: GameState, seat: int, rules: HandRules | None = None) -> tuple[int, ...]:
    """The musicals the seat can stage now with its hand."""
    by_size = (rules or hand_rules(state, seat)).stageable
    held = len(state.players[seat].hand)
    return by_size[held] if held < len(by_size) else ()


def best_stage(state: GameState, seat: int, musical: int) -> StageChoice:
    """The highest-valued staging of `musical` from the hand, in the city where it scores most."""
    data = state.data
    hand = state.players[seat].hand
    # No casting is worth more than the hand's potential, so the first to reach it is the one a
    # search of every combination would keep: the computer players ask this on every turn.
    most = potential(data, musical, tuple(sorted(hand)))
    choices = combinations(hand, data.role_counts[musical])
    cards = next(choices)
    casting = best_casting(data, musical, cards)
    for other in choices:
        if casting.value >= most:
            break
        other_casting = best_casting(data, musical, other)
        if other_casting.value > casting.value:
            casting, cards = other_casting, other
    return StageChoice(musical, cards, best_city(state, musical, casting.value), casting)


def best_city(state: GameState, musical: int, value: int) -> int:
    """The musical's city, or for a first production the free city paying most for its rank."""
    city = state.musical_city[musical]
    if city is not None:
        return city
    touring = state.data.touring_values(state.variant, len(state.players), musical)
    place = sum(1 for v in touring if v >= value)

    def points(candidate: int) -> int:
        table = state.data.cities[candidate].points
        return table[place] if place < len(table) else 0

    return max(board.free_cities(state), key=points)


def legal_summary(state: GameState, seat: int, kinds: tuple[str, ...] = KINDS) -> list[str]:
    """Example order lines of everything `seat` may do now, e.g. `HIRE 0`, `LOAN WOLF#1 <1-7
    points>`."""
    if state.turn != seat:
        return []
    lines: list[str] = []
    if "LOAN" in kinds and loan_open(state):
        for chip in board.loanable(state, seat):
            most = min(chip.value, state.data.loan_max_points)
            name = order_word(musical_name(state, chip.musical))
            # The amount as a placeholder, as HELP writes one: "1-7" copied was refused
            # as a loan of "1-7" points (play-testing).
            lines.append(f"LOAN {name}#{chip.number} <1-{most} points>")
    if "REFRESH" in kinds and can_refresh(state, seat):
        lines.append("REFRESH")
    if "HIRE" in kinds:
        lines.extend(f"HIRE {slot}" for slot in hire_slots(state, seat))
    if "STAGE" in kinds:
        for musical in stageable(state, seat):
            choice = best_stage(state, seat, musical)
            cards = " ".join(str(card) for card in choice.cards)
            city = order_word(city_name(state, choice.city))
            lines.append(f"STAGE {order_word(musical_name(state, musical))} {cards} IN {city}")
    return lines
