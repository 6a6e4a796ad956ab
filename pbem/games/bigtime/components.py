"""The Big Time!'s component data: the chart, reviews, money and the 48 acts, read from data files.

The numbers live in `bigtime.toml` and the acts in `bigtime_acts.csv` (package data). A game
master's own TOML may replace them; see `acts_file` for the acts CSV that goes with it. Parsed
data is cached per file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from pbem.games.data import package_file, read_csv, read_toml

GAME = "bigtime"
TOML_NAME = "bigtime.toml"
ACTS_NAME = "bigtime_acts.csv"
TROUPER = "trouper"
HEADLINER = "headliner"


class BigTimeSetupError(ValueError):
    """The component data or a new game's fixed set-up cannot be used."""


@dataclass(frozen=True, slots=True)
class Act:
    card: str
    name: str
    kind: str
    act_type: str
    value: int
    icons: int
    label: str = field(init=False)  # built once: events name acts often
    # Read for every act of every playbill at each show's clean-up: a field, not a property.
    is_headliner: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "label", f"{self.card} {self.name} ({self.act_type}, {self.value})"
        )
        object.__setattr__(self, "is_headliner", self.kind == HEADLINER)


@dataclass(frozen=True, slots=True)
class Tier:
    name: str
    low: int
    high: int
    up: int
    down: int
    posterity: int


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: cached per file
class BigTimeData:
    act_types: tuple[str, ...]
    rounds: int
    money_cards: tuple[int, ...]  # highest first, as hands are kept
    variety_bonus: int
    tiers: tuple[Tier, ...]  # lowest first
    starred_spaces: tuple[int, ...]
    reviews: dict[int, tuple[str, ...]]  # by player count, best first
    review_stars: dict[str, int]
    bonus_card: dict[int, dict[str, int]]  # by player count: starting review -> bonus card value
    acts: dict[str, Act]
    troupers: tuple[str, ...]
    headliners: tuple[str, ...]
    tier_of: dict[int, Tier]  # chart space -> its tier

    @property
    def bottom(self) -> int:
        return self.tiers[0].low

    @property
    def top(self) -> int:
        return self.tiers[-1].high

    @property
    def player_counts(self) -> tuple[int, ...]:
        return tuple(sorted(self.reviews))


@lru_cache(maxsize=8)
def load_components(data_file: Path | None = None) -> BigTimeData:
    """The packaged data, or a game master's TOML (and the acts CSV it names)."""
    path = data_file if data_file is not None else package_file(GAME, TOML_NAME)
    return _load(path.resolve())


def acts_file(data_file: Path | None) -> Path:
    """The acts CSV of a data file: the file its `acts` key names (relative to the TOML); else a
    `bigtime_acts.csv` beside the TOML; else the packaged one."""
    if data_file is None:
        return package_file(GAME, ACTS_NAME)
    try:
        return _acts_beside(data_file, read_toml(data_file))
    except (OSError, ValueError) as exc:
        raise BigTimeSetupError(f"cannot read The Big Time! data from {data_file}: {exc}") from exc


def _acts_beside(toml_path: Path, raw: dict[str, Any]) -> Path:
    if "acts" in raw:
        return toml_path.parent / str(raw["acts"])
    beside = toml_path.parent / ACTS_NAME
    return beside if beside.exists() else package_file(GAME, ACTS_NAME)


@lru_cache(maxsize=8)
def _load(path: Path) -> BigTimeData:
    try:
        raw = read_toml(path)
        return _parse(raw, read_csv(_acts_beside(path, raw)))
    except (OSError, KeyError, TypeError, ValueError) as exc:
        raise BigTimeSetupError(f"cannot read The Big Time! data from {path}: {exc}") from exc


def _parse(raw: dict[str, Any], rows: list[dict[str, str]]) -> BigTimeData:
    acts = {
        row["id"]: Act(
            card=row["id"],
            name=row["name"],
            kind=row["kind"],
            act_type=row["type"],
            value=int(row["value"]),
            icons=int(row["icons"]),
        )
        for row in rows
    }
    tiers = tuple(
        Tier(t["name"], t["spaces"][0], t["spaces"][1], t["up"], t["down"], t["posterity"])
        for t in raw["tier"]
    )
    data = BigTimeData(
        act_types=tuple(raw["act_types"]),
        rounds=int(raw["rounds"]),
        money_cards=tuple(sorted(raw["money_cards"], reverse=True)),
        variety_bonus=int(raw["variety_bonus"]),
        tiers=tiers,
        starred_spaces=tuple(raw["chart"]["starred_spaces"]),
        reviews={int(n): tuple(names) for n, names in raw["reviews"].items()},
        review_stars=dict(raw["review_stars"]),
        bonus_card={int(n): dict(cards) for n, cards in raw["bonus_card"].items()},
        acts=acts,
        troupers=tuple(card for card, act in acts.items() if act.kind == TROUPER),
        headliners=tuple(card for card, act in acts.items() if act.kind == HEADLINER),
        tier_of={space: tier for tier in tiers for space in range(tier.low, tier.high + 1)},
    )
    _validate(data)
    return data


def _validate(data: BigTimeData) -> None:
    problems: list[str] = []
    spaces = [space for tier in data.tiers for space in range(tier.low, tier.high + 1)]
    if spaces != list(range(data.bottom, data.top + 1)):
        problems.append("the tiers must cover the chart's spaces in order, without gaps")
    if not set(data.starred_spaces) <= set(spaces):
        problems.append("every starred space must be on the chart")
    if len(set(data.starred_spaces)) < len(data.act_types):
        problems.append("there must be a starred space for every act type")
    for act in data.acts.values():
        if act.kind not in (TROUPER, HEADLINER) or act.act_type not in data.act_types:
            problems.append(f"act {act.card} has an unknown kind or type")
    for players, names in data.reviews.items():
        if len(names) != players or any(name not in data.review_stars for name in names):
            problems.append(f"the reviews for {players} players must be {players} known reviews")
        if len(data.troupers) < 4 * (players + 1):
            problems.append(f"{players} players need {4 * (players + 1)} Troupers")
        if len(data.headliners) < data.rounds * (players + 1):
            problems.append(f"{players} players need {data.rounds * (players + 1)} Headliners")
    for players, bonus in data.bonus_card.items():
        if not set(bonus) <= set(data.reviews.get(players, ())):
            problems.append(f"the bonus cards for {players} players name unknown reviews")
    if problems:
        raise BigTimeSetupError("; ".join(problems))
