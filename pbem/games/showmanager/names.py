"""How the engine names things in refusals and example orders, and reads names back.

A premiere game shows the Premiere theme's names; either theme's name is understood, whatever
its case, spaces and hyphens (ORDERS.md): the game master's `set-value` reads names with these
lookups directly (`misshanoi`), not through the order parser.
"""

from __future__ import annotations

import functools
import re

from pbem.games.showmanager.components import City, Components, Musical
from pbem.games.showmanager.state import Chip, GameState

_SPACING = re.compile(r"[\s\-]+")
_ASCII = str.maketrans(
    {"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ß": "ss"}
)


def seat_name(seat: int) -> str:
    return f"Player {seat + 1}"


def shown(state: GameState, thing: Musical | City) -> str:
    return thing.premiere_name if state.variant == "premiere" else thing.name


def musical_name(state: GameState, musical: int) -> str:
    return shown(state, state.data.musicals[musical])


def city_name(state: GameState, city: int) -> str:
    return shown(state, state.data.cities[city])


def order_word(name: str) -> str:
    """A name as an example order line writes it: in capitals, spelt as the board spells it
    (`Köln` -> `KÖLN`), so a hint names the city the player sees; `KOELN` is read all the same."""
    return name.upper()


def production_name(state: GameState, chip: Chip) -> str:
    """`Wolf#2`; a touring company is `touring Wolf (17)`."""
    if chip.owner is None:
        return f"touring {musical_name(state, chip.musical)} ({chip.value})"
    return f"{musical_name(state, chip.musical)}#{chip.number}"


def find_musical(data: Components, name: str) -> int | None:
    return _lookups(data)[0].get(_key(name))


def find_city(data: Components, name: str) -> int | None:
    return _lookups(data)[1].get(_key(name))


def find_role(data: Components, musical: int, name: str) -> int | None:
    return _lookups(data)[2][musical].get(_key(name))


@functools.lru_cache(maxsize=1024)
def _key(name: str) -> str:
    """What of a name is compared: capitals, umlauts spelt out, spaces and hyphens aside
    (`KINGLEAR`, `KOELN`), so a mail client without umlauts names the same city.

    Remembered: every LOAN and STAGE is resolved by name, and the names are few."""
    return _SPACING.sub("", name.translate(_ASCII).upper())


@functools.cache
def _lookups(
    data: Components,
) -> tuple[dict[str, int], dict[str, int], tuple[dict[str, int], ...]]:
    """Names (either theme) to indexes, built once per component data."""
    musicals = {_key(n): i for i, m in enumerate(data.musicals) for n in (m.name, m.premiere_name)}
    cities = {_key(n): i for i, c in enumerate(data.cities) for n in (c.name, c.premiere_name)}
    roles = tuple({_key(r): i for i, r in enumerate(m.roles)} for m in data.musicals)
    return musicals, cities, roles
