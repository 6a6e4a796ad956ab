"""Game-master corrections: a player's money, a production's value. Misuse raises."""

from __future__ import annotations

from pbem.games.base import Event
from pbem.games.showmanager import board
from pbem.games.showmanager.errors import ShowManagerError
from pbem.games.showmanager.events import MoneyChanged, MoneySet, ValueSet
from pbem.games.showmanager.names import (
    find_musical,
    musical_name,
    production_name,
    seat_name,
    shown,
)
from pbem.games.showmanager.state import Chip, GameState


def set_money(state: GameState, seat: int, amount: int) -> list[Event]:
    _check_seat(state, seat)
    if amount < 0:
        raise ShowManagerError(f"money cannot be negative ({amount})")
    state.players[seat].money = amount
    return [MoneyChanged(seat), MoneySet(seat, amount, to=(seat,))]


def set_value(
    state: GameState, seat: int, musical: str, number: int | None, value: int
) -> list[Event]:
    """Set a production's value and rank it again below every equal value."""
    _check_seat(state, seat)
    if value < 0:
        raise ShowManagerError(f"a production's value cannot be negative ({value})")
    index = find_musical(state.data, musical)
    if index is None:  # the names the game's boards show (a premiere game's own)
        names = ", ".join(shown(state, m) for m in state.data.musicals)
        raise ShowManagerError(f"there is no musical called {musical}: choose one of {names}")
    own = board.own_chips(state, seat, index)
    matching = [chip for chip in own if number in (None, chip.number)]
    if len(matching) != 1:
        raise ShowManagerError(_no_single_chip(state, seat, index, own, number))
    chip = matching[0]
    city = state.musical_city[index]
    assert city is not None
    place = board.rerank(state.cities[city], chip, value)
    return [ValueSet(seat, index, chip.number, value, place, city)]


def _no_single_chip(
    state: GameState, seat: int, index: int, own: list[Chip], number: int | None
) -> str:
    """Why no one production is meant, and the ones the seat has (`Wolf#1`) to choose from, by
    the names the game's boards show."""
    musical = musical_name(state, index)
    if not own:
        return f"{seat_name(seat)} has no production of {musical} on the board"
    productions = ", ".join(production_name(state, chip) for chip in own)
    if number is None:
        return f"{seat_name(seat)} has {len(own)} productions of {musical}: name one, {productions}"
    return f"{seat_name(seat)} has no {musical}#{number} on the board: choose {productions}"


def _check_seat(state: GameState, seat: int) -> None:
    if not 0 <= seat < len(state.players):
        raise ShowManagerError(f"no seat {seat} in a {len(state.players)}-player game")
