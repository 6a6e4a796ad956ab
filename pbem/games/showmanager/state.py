"""The state of a Show Manager game, and its JSON-safe form.

Musicals and cities are indexes into the component data; cards are their ids. The state keeps a
reference to its (cached) component data, which is not part of the saved form: `data_file` says
where to read it again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.games.rng import Rng
from pbem.games.showmanager.components import Components, load_components
from pbem.games.showmanager.errors import ShowManagerError

FORMAT = 1


@dataclass(slots=True)
class Chip:
    """A production's chip on the city board; owner None is a touring company."""

    owner: int | None
    musical: int
    number: int  # the owner's n-th production of this musical, counted from 1; touring: 0
    value: int
    loaned: bool = False
    cards: tuple[int, ...] = ()  # the cast, one card per role in cast-list order; touring: ()


@dataclass(slots=True)
class Player:
    money: int
    staged: list[int]  # productions staged so far, per musical
    hand: list[int] = field(default_factory=list)


@dataclass(slots=True)
class GameState:
    data: Components = field(repr=False, compare=False)
    data_file: str | None
    variant: str
    rng: Rng
    deck: list[int]  # the top card is the last one
    discard: list[int]
    display: list[int | None]  # slot k's card; empty slots are always the dearest ones
    players: list[Player]
    cities: list[list[Chip]]  # each city's chips from the top
    musical_city: list[int | None]  # where each musical plays, once staged
    turn: int | None  # the seat whose turn it is; None once the game is over
    turn_loaned: bool = False
    turn_refreshed: bool = False
    # read on every order, so looked up once
    productions_per_musical: int = field(init=False, repr=False, compare=False)
    chips_per_musical: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        players = len(self.players)
        self.productions_per_musical = self.data.productions_per_musical[players]
        self.chips_per_musical = self.data.chips_per_musical(self.variant, players)

    def productions_left(self, seat: int) -> int:
        staged = self.players[seat].staged
        return self.productions_per_musical * len(staged) - sum(staged)


def dump_state(state: GameState) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "data_file": state.data_file,
        "variant": state.variant,
        "rng": state.rng.state,
        "deck": list(state.deck),
        "discard": list(state.discard),
        "display": list(state.display),
        "players": [
            {"money": p.money, "staged": list(p.staged), "hand": list(p.hand)}
            for p in state.players
        ],
        "cities": [[_dump_chip(chip) for chip in city] for city in state.cities],
        "musical_city": list(state.musical_city),
        "turn": state.turn,
        "turn_loaned": state.turn_loaned,
        "turn_refreshed": state.turn_refreshed,
    }


def load_state(raw: dict[str, Any]) -> GameState:
    if raw.get("format") != FORMAT:
        raise ShowManagerError(f"saved Show Manager state has format {raw.get('format')!r}")
    data_file = raw["data_file"]
    return GameState(
        data=load_components(Path(data_file) if data_file else None),
        data_file=data_file,
        variant=raw["variant"],
        rng=Rng(raw["rng"]),
        deck=list(raw["deck"]),
        discard=list(raw["discard"]),
        display=list(raw["display"]),
        players=[Player(p["money"], list(p["staged"]), list(p["hand"])) for p in raw["players"]],
        cities=[[_load_chip(chip) for chip in city] for city in raw["cities"]],
        musical_city=list(raw["musical_city"]),
        turn=raw["turn"],
        turn_loaned=raw["turn_loaned"],
        turn_refreshed=raw["turn_refreshed"],
    )


def _dump_chip(chip: Chip) -> dict[str, Any]:
    return {
        "owner": chip.owner,
        "musical": chip.musical,
        "number": chip.number,
        "value": chip.value,
        "loaned": chip.loaned,
        "cards": list(chip.cards),
    }


def _load_chip(raw: dict[str, Any]) -> Chip:
    return Chip(
        raw["owner"],
        raw["musical"],
        raw["number"],
        raw["value"],
        raw["loaned"],
        tuple(raw["cards"]),
    )
