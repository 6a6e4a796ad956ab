"""The agency: the deck, the four-slot display and the discard pile."""

from __future__ import annotations

from pbem.games.base import Event
from pbem.games.rng import Rng
from pbem.games.showmanager.errors import ShowManagerError
from pbem.games.showmanager.events import DeckRebuilt
from pbem.games.showmanager.state import GameState, dump_state, load_state


def draw(state: GameState, events: list[Event]) -> int | None:
    """The deck's top card; an empty deck is first rebuilt from the shuffled discard pile."""
    if not state.deck:
        if not state.discard:
            return None
        state.deck, state.discard = state.discard, []
        state.rng.shuffle(state.deck)
        events.append(DeckRebuilt(len(state.deck)))
    return state.deck.pop()


def deal(state: GameState, events: list[Event]) -> None:
    """Fill every slot from the deck, cheapest first; without cards the dearest slots stay empty."""
    count = len(state.display)
    deck = state.deck
    if len(deck) >= count:  # the common case, in one slice: the top card (the last) comes first
        state.display = [*deck[: -count - 1 : -1]]
        del deck[-count:]
    else:
        state.display = [draw(state, events) for _ in state.display]


def take(state: GameState, slot: int, events: list[Event]) -> int:
    """Take slot `slot`'s card: dearer cards slide down, the deck's top card enters last."""
    display = state.display
    card = display[slot]
    if card is None:
        raise ShowManagerError(f"slot {slot} is empty")
    del display[slot]
    display.append(state.deck.pop() if state.deck else draw(state, events))
    return card


def refresh(state: GameState, events: list[Event]) -> tuple[int, ...]:
    """The displayed cards go to the discard pile first; then four are drawn. Returns the cards
    discarded."""
    discarded = tuple([card for card in state.display if card is not None])
    state.discard.extend(discarded)
    deal(state, events)
    return discarded


def cards_left(state: GameState) -> bool:
    """Whether a refresh would show anything at all."""
    return bool(state.deck or state.discard) or any(c is not None for c in state.display)


def unseen(state: GameState) -> tuple[tuple[int, ...], int]:
    """What no player has seen: the deck's order, and the generator that will shuffle the
    discard pile into the next deck."""
    return tuple(state.deck), state.rng.state


def reshuffle(state: GameState, rng: Rng) -> GameState:
    """A copy of `state` with its deck shuffled by `rng`, which then draws everything random
    after it (the discard pile's shuffle into a new deck included)."""
    shuffled = load_state(dump_state(state))
    rng.shuffle(shuffled.deck)
    shuffled.rng = rng
    return shuffled
