"""Show Manager's component data: board numbers from a TOML file, artiste cards from a CSV file.

Nothing of the game's numbers lives in Python. The packaged files are the default; a game master
may name a TOML of their own with the same keys, whose optional `cards` key names the cards CSV by
a path relative to the TOML (default: the packaged CSV). Parsed data is cached per file.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem.games.data import package_file, read_csv, read_toml
from pbem.games.showmanager.errors import ShowManagerError

GAME = "showmanager"
DEFAULT_TOML = "showmanager.toml"
DEFAULT_CARDS = "showmanager_cards.csv"
TOURING_KEYS = {1: "one_set", 2: "two_sets"}


@dataclass(frozen=True)
class Card:
    id: int
    name: str
    provincial: bool
    talents: tuple[tuple[str, int], ...]  # (role, points) as printed; empty for provincial actors


@dataclass(frozen=True, eq=False)
class Musical:
    name: str
    premiere_name: str
    roles: tuple[str, ...]
    touring: Mapping[int, tuple[int, ...]]  # number of touring sets -> the chips' values


@dataclass(frozen=True)
class City:
    name: str
    premiere_name: str
    points: tuple[int, ...]  # victory points for rank 1, 2, ...


@dataclass(frozen=True, eq=False)
class Components:
    """Everything printed on the boards and cards, plus per-musical talent tables for casting."""

    source: str
    starting_money: Mapping[int, int]
    productions_per_musical: Mapping[int, int]
    slot_costs: tuple[int, ...]
    refresh_cost: int
    loan_max_points: int
    loan_marks_per_point: int
    hand_after_staging: int
    hand_after_last_staging: int
    provincial_value: int
    musicals: tuple[Musical, ...]
    cities: tuple[City, ...]
    touring_sets: Mapping[str, Mapping[int, int]]  # variant -> player count -> sets
    cards: Mapping[int, Card]
    # talents[m][card id]: the (role index, points) the card can play in musical m, best first
    talents: tuple[Mapping[int, tuple[tuple[int, int], ...]], ...]
    # points[m][card id]: what the card scores in each role of musical m (0: miscast)
    points: tuple[Mapping[int, tuple[int, ...]], ...]
    role_counts: tuple[int, ...]  # per musical
    provincials: frozenset[int]

    def player_counts(self, variant: str) -> tuple[int, ...]:
        sets = self.touring_sets.get(variant, {})
        return tuple(sorted(n for n in sets if n in self.starting_money))

    def touring_values(self, variant: str, players: int, musical: int) -> tuple[int, ...]:
        sets = self.touring_sets[variant][players]
        return self.musicals[musical].touring[sets] if sets else ()

    def chips_per_musical(self, variant: str, players: int) -> int:
        """Every chip of one musical there will be: the players' and the touring companies'."""
        own = players * self.productions_per_musical[players]
        return own + self.touring_sets[variant][players]

    def fits(self, musical: int, card: int, role: int) -> bool:
        """False when the card would be miscast in that role."""
        return card in self.provincials or self.points[musical][card][role] > 0

    def most_cards_taken(self, players: int) -> int:
        """The most cards one player can have taken (staged plus in hand) at any moment.

        With one production left the hand may hold its roles plus the last-staging limit; with
        more left, the cheapest remaining musical's roles are still to come. The larger bound wins.
        """
        per = self.productions_per_musical[players]
        roles = self.role_counts
        total = per * sum(roles)
        return max(
            total + self.hand_after_last_staging,
            total - min(roles) + self.hand_after_staging,
        )


def load_components(path: Path | None = None) -> Components:
    """The parsed data of `path` (a TOML), or of the packaged files when None. Cached."""
    return _load(_packaged_toml() if path is None else str(Path(path).resolve()))


@functools.cache
def _packaged_toml() -> str:
    """Finding a package file costs more than a game's set-up: find it once."""
    return str(package_file(GAME, DEFAULT_TOML).resolve())


@functools.cache
def _load(toml_path: str) -> Components:
    path = Path(toml_path)
    try:
        raw = read_toml(path)
        cards_path = path.parent / raw["cards"] if "cards" in raw else None
        rows = read_csv(cards_path if cards_path else package_file(GAME, DEFAULT_CARDS))
        return _parse(toml_path, raw, rows)
    except (OSError, KeyError, ValueError, TypeError) as exc:
        raise ShowManagerError(f"cannot use Show Manager data {toml_path}: {exc!r}") from exc


def _by_players(table: Mapping[str, Any]) -> dict[int, int]:
    return {int(players): int(value) for players, value in table.items()}


def _parse(source: str, raw: dict[str, Any], rows: list[dict[str, str]]) -> Components:
    musicals = tuple(
        Musical(
            name=m["name"],
            premiere_name=m.get("premiere_name", m["name"]),
            roles=tuple(m["roles"]),
            touring={sets: tuple(m["touring"][key]) for sets, key in TOURING_KEYS.items()},
        )
        for m in raw["musical"]
    )
    cities = tuple(
        City(c["name"], c.get("premiere_name", c["name"]), tuple(c["points"])) for c in raw["city"]
    )
    if len(cities) < len(musicals):
        raise ValueError("every musical needs a city of its own")
    cards = {card.id: card for card in (_parse_card(row) for row in rows)}
    known_roles = {role for m in musicals for role in m.roles}
    for card in cards.values():
        unknown = [role for role, _ in card.talents if role not in known_roles]
        if unknown:
            raise ValueError(f"card {card.id} names unknown roles {unknown}")
    return Components(
        source=source,
        starting_money=_by_players(raw["starting_money"]),
        productions_per_musical=_by_players(raw["productions_per_musical"]),
        slot_costs=tuple(raw["agency_slot_costs"]),
        refresh_cost=raw["refresh_cost"],
        loan_max_points=raw["loan_max_points"],
        loan_marks_per_point=raw["loan_marks_per_point"],
        hand_after_staging=raw["hand_after_staging"],
        hand_after_last_staging=raw["hand_after_last_staging"],
        provincial_value=raw["provincial_value"],
        musicals=musicals,
        cities=cities,
        touring_sets={v: _by_players(t) for v, t in raw["touring_sets"].items()},
        cards=cards,
        talents=tuple(_talent_table(m, cards) for m in musicals),
        points=tuple(_points_table(m, cards, raw["provincial_value"]) for m in musicals),
        role_counts=tuple(len(m.roles) for m in musicals),
        provincials=frozenset(card.id for card in cards.values() if card.provincial),
    )


def _points_table(
    musical: Musical, cards: Mapping[int, Card], provincial_value: int
) -> dict[int, tuple[int, ...]]:
    table: dict[int, tuple[int, ...]] = {}
    for card in cards.values():
        talents = dict(card.talents)
        table[card.id] = tuple(
            provincial_value if card.provincial else talents.get(role, 0) for role in musical.roles
        )
    return table


def _parse_card(row: dict[str, str]) -> Card:
    provincial = row["provincial"].strip().lower() in ("yes", "true", "1")
    talents: list[tuple[str, int]] = []
    if not provincial:
        for item in filter(None, row["talents"].split(";")):
            role, points = item.split("=")
            if int(points) <= 0:
                raise ValueError(f"card {row['id']}: a talent is worth at least 1 ({item})")
            talents.append((role.strip(), int(points)))
    return Card(int(row["id"]), row["name"].strip(), provincial, tuple(talents))


def _talent_table(
    musical: Musical, cards: Mapping[int, Card]
) -> dict[int, tuple[tuple[int, int], ...]]:
    index = {role: i for i, role in enumerate(musical.roles)}
    table: dict[int, tuple[tuple[int, int], ...]] = {}
    for card in cards.values():
        playable = [(index[role], pts) for role, pts in card.talents if role in index]
        table[card.id] = tuple(sorted(playable, key=lambda rp: -rp[1]))
    return table
