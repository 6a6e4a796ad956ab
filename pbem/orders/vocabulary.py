"""The names each game's orders may use, read from its component data (the GM's file or ours)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from pbem.games.data import package_file, read_csv, read_toml
from pbem.orders.errors import OrdersError
from pbem.orders.names import NameTable, name_words

_ACT_ID = re.compile(r"^([A-Za-z]+)0*([0-9]{1,9})$")


@dataclass(frozen=True)
class Musical:
    name: str
    premiere_name: str
    roles: tuple[str, ...]


@dataclass(frozen=True)
class City:
    name: str
    premiere_name: str


@dataclass(frozen=True)
class ShowManagerVocabulary:
    """Musicals, cities and roles; both themes' names lead to the canonical (standard) name."""

    musicals: tuple[Musical, ...]
    cities: tuple[City, ...]
    slots: int
    premiere: bool
    musical_names: NameTable
    city_names: NameTable
    role_names: dict[str, NameTable]  # by canonical musical name

    def shown(self, name: str) -> str:
        """A canonical musical or city name as the variant's theme prints it."""
        if not self.premiere:
            return name
        musicals = {musical.name: musical.premiere_name for musical in self.musicals}
        cities = {city.name: city.premiere_name for city in self.cities}
        return musicals.get(name) or cities.get(name) or name


@dataclass(frozen=True)
class BigTimeVocabulary:
    """The card ids of the acts (`T07`, `H31`)."""

    act_ids: tuple[str, ...]

    def exact_id(self, word: str) -> str | None:
        wanted = word.upper()
        return next((act for act in self.act_ids if act.upper() == wanted), None)

    def loose_id(self, word: str) -> str | None:
        """The card id `word` names with its number written without leading zeros (`t7`)."""
        wanted = _act_key(word)
        if wanted is None:
            return None
        return next((act for act in self.act_ids if _act_key(act) == wanted), None)


def _act_key(word: str) -> tuple[str, int] | None:
    match = _ACT_ID.match(word)
    return (match[1].upper(), int(match[2])) if match else None


@cache
def show_manager_vocabulary(
    data_file: Path | None = None, variant: str = "standard"
) -> ShowManagerVocabulary:
    """Names from `showmanager.toml` (or a GM's copy of it); `premiere` shows the Premiere theme."""
    data = _read(data_file or package_file("showmanager", "showmanager.toml"))
    try:
        musicals = tuple(
            Musical(
                str(entry["name"]), str(entry["premiere_name"]), tuple(map(str, entry["roles"]))
            )
            for entry in data["musical"]
        )
        cities = tuple(
            City(str(entry["name"]), str(entry["premiere_name"])) for entry in data["city"]
        )
        slots = len(data["agency_slot_costs"])
    except (KeyError, TypeError) as exc:
        raise OrdersError(f"Show Manager data lacks musical, city or agency names: {exc}") from exc
    if not musicals or not cities:
        raise OrdersError("Show Manager data names no musical or no city")
    premiere = variant == "premiere"
    return ShowManagerVocabulary(
        musicals=musicals,
        cities=cities,
        slots=slots,
        premiere=premiere,
        musical_names=_themed_table("musical", musicals, premiere),
        city_names=_themed_table("city", cities, premiere),
        role_names={musical.name: _role_table(musical) for musical in musicals},
    )


@cache
def big_time_vocabulary(acts_file: Path | None = None) -> BigTimeVocabulary:
    """Act card ids from `bigtime_acts.csv` (or a GM's copy of it)."""
    path = acts_file or package_file("bigtime", "bigtime_acts.csv")
    try:
        act_ids = tuple(row["id"].strip() for row in read_csv(path))
    except (OSError, KeyError, UnicodeDecodeError) as exc:
        raise OrdersError(f"cannot read act ids from {path}: {exc}") from exc
    return BigTimeVocabulary(act_ids)


def _read(path: Path) -> dict[str, Any]:
    try:
        return read_toml(path)
    except (OSError, ValueError) as exc:
        raise OrdersError(f"cannot read names from {path}: {exc}") from exc


def _themed_table(
    kind: str, things: tuple[Musical, ...] | tuple[City, ...], premiere: bool
) -> NameTable:
    shown = [thing.premiere_name if premiere else thing.name for thing in things]
    written = [(thing.name, thing.name) for thing in things]
    written += [(thing.premiere_name, thing.name) for thing in things]
    return NameTable.build(kind, shown, written)


def _role_table(musical: Musical) -> NameTable:
    """Roles by full name, or by any one word of it (`Jester`, `Lady`) if unambiguous."""
    partial = [(word, role) for role in musical.roles for word in name_words(role)]
    return NameTable.build("role", musical.roles, [(role, role) for role in musical.roles], partial)
