"""The city board: ranking chips, touring companies, what may be borrowed against, scores."""

from __future__ import annotations

from pbem.games.showmanager.state import Chip, GameState


def rank(city: list[Chip], chip: Chip) -> int:
    """Put `chip` below every chip of equal or higher value; return its place (0 is the top)."""
    place = 0
    while place < len(city) and city[place].value >= chip.value:
        place += 1
    city.insert(place, chip)
    return place


def rerank(city: list[Chip], chip: Chip, value: int) -> int:
    """Give `chip` a new value and rank it again, as if it had just arrived."""
    city.pop(next(i for i, other in enumerate(city) if other is chip))
    chip.value = value
    return rank(city, chip)


def open_city(state: GameState, musical: int, city: int) -> list[Chip]:
    """A musical's first production names its city; the touring companies arrive there first."""
    state.musical_city[musical] = city
    chips = state.cities[city]
    for value in state.data.touring_values(state.variant, len(state.players), musical):
        rank(chips, Chip(None, musical, 0, value))
    return chips


def free_cities(state: GameState) -> list[int]:
    return [city for city, chips in enumerate(state.cities) if not chips]


def own_chips(state: GameState, seat: int, musical: int) -> list[Chip]:
    city = state.musical_city[musical]
    if city is None:
        return []
    return [chip for chip in state.cities[city] if chip.owner == seat]


def all_chips_placed(state: GameState, musical: int) -> bool:
    """The loan cut-off: every chip of the musical, touring ones included, is on the board."""
    city = state.musical_city[musical]
    return city is not None and len(state.cities[city]) >= state.chips_per_musical


def loanable(state: GameState, seat: int) -> list[Chip]:
    """The seat's productions a loan may be taken against now (turn order aside).

    One loan per musical per player covers both "one loan per production" and "of two productions
    of one musical only one may ever be borrowed against".
    """
    chips: list[Chip] = []
    cities, placed = state.cities, state.chips_per_musical
    staged = state.players[seat].staged
    # Staged means placed in a city; `all_chips_placed` and `own_chips`, inlined in one pass over
    # the city because the random player asks this on most turns (issue 14). An index, not
    # zip(strict=True): making a zip with a keyword costs as much as this whole loop.
    for musical, city in enumerate(state.musical_city):
        if city is not None and staged[musical] and len(cities[city]) < placed:
            own = []
            for chip in cities[city]:
                if chip.owner == seat:
                    if chip.loaned:  # this musical is borrowed against: none of its productions
                        break
                    if chip.value > 0:
                        own.append(chip)
            else:
                chips += own
    return chips


def scores(state: GameState) -> list[int]:
    """Each seat's points: the points of the slots its chips hold (touring chips score nothing)."""
    totals = [0] * len(state.players)
    for index, chips in enumerate(state.cities):
        city = state.data.cities[index]
        for place, chip in enumerate(chips):
            if chip.owner is not None and place < len(city.points):
                totals[chip.owner] += city.points[place]
    return totals
