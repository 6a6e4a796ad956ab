"""Game-master corrections: a player's money, a production's value. Misuse raises."""

from __future__ import annotations

from pbem.games.base import Event
from pbem.games.showmanager import board
from pbem.games.showmanager.errors import ShowManagerError
from pbem.games.showmanager.names import (
    city_name,
    find_musical,
    ordinal,
    production_name,
    seat_name,
)
from pbem.games.showmanager.state import GameState


def set_money(state: GameState, seat: int, amount: int) -> list[Event]:
    _check_seat(state, seat)
    if amount < 0:
        raise ShowManagerError(f"money cannot be negative ({amount})")
    state.players[seat].money = amount
    return [
        Event(f"The game master changed {seat_name(seat)}'s money."),
        Event(f"The game master set your money to {amount}.", (seat,)),
    ]


def set_value(
    state: GameState, seat: int, musical: str, number: int | None, value: int
) -> list[Event]:
    """Set a production's value and rank it again below every equal value."""
    _check_seat(state, seat)
    if value < 0:
        raise ShowManagerError(f"a production's value cannot be negative ({value})")
    index = find_musical(state.data, musical)
    if index is None:
        raise ShowManagerError(f"there is no musical called {musical}")
    own = board.own_chips(state, seat, index)
    matching = [chip for chip in own if number in (None, chip.number)]
    if len(matching) != 1:
        raise ShowManagerError(f"{seat_name(seat)} has no single {musical}#{number} on the board")
    chip = matching[0]
    city = state.musical_city[index]
    assert city is not None
    place = board.rerank(state.cities[city], chip, value)
    return [
        Event(
            f"The game master set {seat_name(seat)}'s {production_name(state, chip)} to {value}: "
            f"now {ordinal(place + 1)} in {city_name(state, city)}."
        )
    ]


def _check_seat(state: GameState, seat: int) -> None:
    if not 0 <= seat < len(state.players):
        raise ShowManagerError(f"no seat {seat} in a {len(state.players)}-player game")
