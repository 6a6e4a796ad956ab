"""Carrying out orders in place, and passing the turn.

`apply` trusts that `rules.check` accepted the order (`submit` always checks; the random player
makes only legal orders), so it does not judge it again: it only looks up what the order names,
and raises if even that fails, which is a bug in the caller, never a player's mistake.
"""

from __future__ import annotations

from typing import TypeVar

from pbem.games.base import Event
from pbem.games.showmanager import agency, board, resolve
from pbem.games.showmanager.actions import Action, Hire, Refresh, Stage
from pbem.games.showmanager.casting import best_casting
from pbem.games.showmanager.errors import ShowManagerError
from pbem.games.showmanager.events import (
    GameOver,
    Hired,
    Loaned,
    LoanPaid,
    Paid,
    Refreshed,
    SatOut,
    Staged,
    ToursOpened,
    TurnSkipped,
)
from pbem.games.showmanager.names import find_musical
from pbem.games.showmanager.scoring import outcome
from pbem.games.showmanager.state import Chip, GameState

T = TypeVar("T")


def apply(state: GameState, seat: int, action: Action) -> list[Event]:
    """Carry out an order `rules.check` accepted."""
    if state.turn != seat:
        raise ShowManagerError(f"seat {seat} acted out of turn")
    # Most frequent first: a random game's orders are about 60% hires, 20% refreshes.
    if isinstance(action, Hire):
        return hire(state, seat, _found(resolve.hire_slot(state, action), action))
    if isinstance(action, Refresh):
        return refresh(state, seat)
    if isinstance(action, Stage):
        musical = _found(find_musical(state.data, action.musical), action)
        city = _found(resolve.stage_city(state, musical, action.city), action)
        cast: dict[int, int] = {}
        if action.casting:  # rare: the player fixed some roles
            fixed = resolve.fixed_roles(state, musical, action)
            cast = {card: _found(role, action) for card, role in fixed.items()}
        return stage(state, seat, musical, action.cards, city, cast)
    return loan(state, seat, _found(resolve.loan_chip(state, seat, action), action), action.points)


def _found(resolved: T | None, action: Action) -> T:
    if resolved is None:
        raise ShowManagerError(f"an unchecked order was applied: {action}")
    return resolved


def loan(state: GameState, seat: int, chip: Chip, points: int) -> list[Event]:
    player = state.players[seat]
    money = points * state.data.loan_marks_per_point
    player.money += money
    chip.loaned = True
    city = state.musical_city[chip.musical]
    assert city is not None
    place = board.rerank(state.cities[city], chip, chip.value - points)
    state.turn_loaned = True
    return [
        Loaned(seat, chip.musical, chip.number, points, chip.value, place, city),
        LoanPaid(seat, money, player.money, to=(seat,)),
    ]


def refresh(state: GameState, seat: int) -> list[Event]:
    player = state.players[seat]
    cost = state.data.refresh_cost
    player.money -= cost
    state.turn_refreshed = True
    events: list[Event] = []
    discarded = agency.refresh(state, events)
    events.append(Refreshed(seat, cost, discarded, tuple(state.display)))
    events.append(Paid(seat, cost, player.money, to=(seat,)))
    return events


def hire(state: GameState, seat: int, slot: int) -> list[Event]:
    player = state.players[seat]
    cost = state.data.slot_costs[slot]
    events: list[Event] = []
    card = agency.take(state, slot, events)
    player.hand.append(card)
    player.money -= cost
    last = len(state.display) - 1
    events.append(Hired(seat, card, slot, cost, state.display[last], last))
    events.append(Paid(seat, cost, player.money, len(player.hand), to=(seat,)))
    _end_turn(state, seat, events)
    return events


def stage(
    state: GameState,
    seat: int,
    musical: int,
    cards: tuple[int, ...],
    city: int,
    fixed: dict[int, int],
) -> list[Event]:
    player = state.players[seat]
    casting = best_casting(state.data, musical, cards, fixed)
    for card in cards:
        player.hand.remove(card)
    player.staged[musical] += 1
    chip = Chip(seat, musical, player.staged[musical], casting.value, cards=casting.cast)
    events: list[Event] = []
    if state.musical_city[musical] is None:
        chips = board.open_city(state, musical, city)
        if chips:
            events.append(ToursOpened(musical, city, tuple(c.value for c in chips)))
    chips = state.cities[city]
    place = board.rank(chips, chip)
    events.append(
        Staged(
            seat,
            musical,
            chip.number,
            city,
            chip.value,
            casting.cast,
            casting.bonus,
            place,
            len(chips),
        )
    )
    if not state.productions_left(seat):
        events.append(SatOut(seat))
    _end_turn(state, seat, events)
    return events


def skip_turn(state: GameState, seat: int) -> list[Event]:
    """The player missed the deadline and the game's policy is to skip: the turn passes on with
    nothing done (RULINGS.md leaves this to the game master; see docs/rules-showmanager.md)."""
    events: list[Event] = [TurnSkipped(seat)]
    _end_turn(state, seat, events)
    return events


def _end_turn(state: GameState, seat: int, events: list[Event]) -> None:
    """Pass the turn clockwise to the next player with productions left; none left ends the game."""
    state.turn_loaned = state.turn_refreshed = False
    count = len(state.players)
    for step in range(1, count + 1):
        candidate = (seat + step) % count
        if state.productions_left(candidate):
            state.turn = candidate
            return
    state.turn = None
    result = outcome(state)
    standings = tuple((s.seat, s.score, s.money) for s in result.standings)
    events.append(GameOver(standings, result.winner))
