"""What one seat may see: the one place hidden information (hands, money) is filtered.

`public_view` is what everyone may see (a watcher of the game): no hand, and money only once the
game is over, when the final result shows it for the tie-break.

Names come twice where themes differ: `name` is the canonical (standard theme) name the actions
use, `shown` the one the variant shows. A parser finds both themes' names in `musicals`/`cities`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pbem.games.showmanager.components import Card
from pbem.games.showmanager.errors import ShowManagerError
from pbem.games.showmanager.legal import legal_summary, loan_open
from pbem.games.showmanager.names import production_name, shown
from pbem.games.showmanager.state import Chip, GameState


@dataclass(frozen=True)
class CardView:
    id: int
    name: str
    provincial: bool  # scores the view's provincial_value in any role, never miscast
    talents: tuple[tuple[str, int], ...]  # (role, points)


@dataclass(frozen=True)
class SlotView:
    slot: int
    cost: int
    card: CardView | None


@dataclass(frozen=True)
class ChipView:
    owner: int | None  # seat; None for a touring company
    musical: str
    shown: str  # the production as the variant names it: `Freudi#1`, `touring Freudi (17)`
    number: int
    value: int
    loaned: bool


@dataclass(frozen=True)
class MusicalView:
    name: str
    premiere_name: str
    shown: str
    roles: tuple[str, ...]
    city: str | None  # canonical name of the city it plays in, once staged


@dataclass(frozen=True)
class CityView:
    name: str
    premiere_name: str
    shown: str
    points: tuple[int, ...]  # for rank 1, 2, ...
    chips: tuple[ChipView, ...]  # from the top


@dataclass(frozen=True)
class PlayerView:
    seat: int
    hand_size: int
    productions_left: int
    money: int | None  # None: hidden from this viewer
    hand: tuple[CardView, ...] | None  # None: hidden from this viewer


@dataclass(frozen=True)
class GameView:
    variant: str
    viewer: int | None  # None: the game master, who sees everything, or (`public_view`) nobody
    turn: int | None  # None once the game is over
    loan_allowed: bool  # the turn is still at its start: a loan may come first
    refresh_allowed: bool  # the turn is open: refreshes may come before the hire or stage
    display: tuple[SlotView, ...]
    deck_size: int
    discard_size: int
    refresh_cost: int
    provincial_value: int
    musicals: tuple[MusicalView, ...]
    cities: tuple[CityView, ...]
    players: tuple[PlayerView, ...]
    legal: tuple[str, ...]  # example orders for the viewer whose turn it is (GM: the turn's player)


def card_view(card: Card) -> CardView:
    return CardView(card.id, card.name, card.provincial, card.talents)


def view(state: GameState, viewer: int | None) -> GameView:
    if viewer is not None and not 0 <= viewer < len(state.players):
        raise ShowManagerError(f"no seat {viewer} in a {len(state.players)}-player game")
    # Example orders for the viewer; for the game master, those of the turn's player.
    acting = state.turn if viewer is None else viewer
    return _view(state, viewer, lambda seat: viewer in (None, seat), acting)


def public_view(state: GameState) -> GameView:
    """What anyone may see, seat or none: every hand hidden, and no example orders (they would
    name the hand of the player whose turn it is)."""
    return _view(state, None, lambda seat: False, None)


def _view(
    state: GameState, viewer: int | None, sees: Callable[[int], bool], acting: int | None
) -> GameView:
    """The view of `viewer` (None: the game master, or nobody), showing the hands and money of
    the seats it `sees`, and example orders for the seat `acting` (None: none)."""
    data = state.data
    over = state.turn is None
    city_names = [c.name for c in data.cities]
    musicals = tuple(
        MusicalView(
            m.name,
            m.premiere_name,
            shown(state, m),
            m.roles,
            None if (home := state.musical_city[i]) is None else city_names[home],
        )
        for i, m in enumerate(data.musicals)
    )
    cities = tuple(
        CityView(
            c.name,
            c.premiere_name,
            shown(state, c),
            c.points,
            tuple(_chip_view(state, chip) for chip in chips),
        )
        for c, chips in zip(data.cities, state.cities, strict=True)
    )
    players = tuple(
        PlayerView(
            seat,
            len(player.hand),
            state.productions_left(seat),
            player.money if sees(seat) or over else None,
            tuple(card_view(data.cards[c]) for c in player.hand) if sees(seat) else None,
        )
        for seat, player in enumerate(state.players)
    )
    display = tuple(
        SlotView(slot, cost, None if card is None else card_view(data.cards[card]))
        for slot, (cost, card) in enumerate(zip(data.slot_costs, state.display, strict=True))
    )
    return GameView(
        variant=state.variant,
        viewer=viewer,
        turn=state.turn,
        loan_allowed=not over and loan_open(state),
        refresh_allowed=not over,
        display=display,
        deck_size=len(state.deck),
        discard_size=len(state.discard),
        refresh_cost=data.refresh_cost,
        provincial_value=data.provincial_value,
        musicals=musicals,
        cities=cities,
        players=players,
        legal=tuple(legal_summary(state, acting)) if acting is not None else (),
    )


def _chip_view(state: GameState, chip: Chip) -> ChipView:
    name = state.data.musicals[chip.musical].name
    return ChipView(
        chip.owner, name, production_name(state, chip), chip.number, chip.value, chip.loaned
    )
