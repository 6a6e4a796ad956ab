"""Setting up Show Manager tables for rule tests: fresh games, chosen hands, forced stagings."""

from __future__ import annotations

from pbem.games.base import NewGame
from pbem.games.showmanager import ENGINE, GameState
from pbem.games.showmanager.actions import Action, Stage

# Cards scoring 9 in every role of a musical (cast-list order), and weaker complete casts.
BEST = {
    "Wolf": (65, 69, 81),  # 9 + 9 + 9 + bonus 3 = 30
    "Queenie": (7, 18, 25, 91),  # 36 + 4 = 40
    "King Lear": (85, 64, 51, 30, 102),  # 45 + 5 = 50
    "Ballet": (89, 106, 35, 4, 90, 16),  # 54 + 6 = 60
}
WOLF_24 = (59, 32, 56)  # 7 + 7 + 7 + 3
WOLF_21 = (43, 73, 27)  # 6 + 6 + 6 + 3
WOLF_18 = (68, 33, 87)  # 5 + 5 + 5 + 3
PROVINCIALS = tuple(range(109, 121))
CONFIGS = (  # every variant with every player count it allows
    [("standard", n) for n in range(2, 7)]
    + [("queen", n) for n in range(2, 7)]
    + [("premiere", n) for n in range(4, 7)]
)


def fresh(players: int = 4, variant: str = "standard", seed: int = 7, first: int = 0) -> GameState:
    return ENGINE.new_game(NewGame(players, variant, seed, first_player=first))


def give(state: GameState, seat: int, *cards: int) -> None:
    """Move cards from wherever they are in the agency (deck, discard, display) into a hand."""
    for card in cards:
        if card in state.deck:
            state.deck.remove(card)
        elif card in state.discard:
            state.discard.remove(card)
        else:
            slot = state.display.index(card)
            state.display[slot] = state.deck.pop()
        state.players[seat].hand.append(card)


def act(state: GameState, seat: int, action: Action) -> None:
    """Carry out one order that must be legal."""
    refusal = ENGINE.check(state, seat, action)
    assert refusal is None, str(refusal)
    ENGINE.apply(state, seat, action)


def force_stage(
    state: GameState, seat: int, musical: str, cards: tuple[int, ...], city: str | None = None
) -> None:
    """Give `seat` the cards and the turn, and stage them."""
    give(state, seat, *cards)
    state.turn = seat
    act(state, seat, Stage(musical, cards, city))


def city_of(state: GameState, name: str) -> list[tuple[int | None, int]]:
    """A city's chips from the top as (owner, value)."""
    index = [c.name for c in state.data.cities].index(name)
    return [(chip.owner, chip.value) for chip in state.cities[index]]
