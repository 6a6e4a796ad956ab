"""Building Big Time! games for the tests: fixed deals, and emails sent through `submit`."""

from __future__ import annotations

from typing import Any

from pbem.games.base import Event, NewGame
from pbem.games.bigtime import ENGINE
from pbem.games.bigtime.actions import Action
from pbem.games.bigtime.state import BigTimeState, Booking
from tests.support.told import told_all

# Round one of a two-player game, rows of three. Values in brackets.
TWO_PLAYER_DEAL = {
    "am": ["T01", "T06", "T11"],  # Variety 1, Animal 2, Magician 3
    "pm": ["T16", "T17", "T22"],  # Acrobat 4, Comedian 1, Musician 2
    "coming_am": ["T03", "T08", "T09"],  # Variety 3, Animal 4, Magician 1
    "coming_pm": ["T14", "T19", "T24"],  # Acrobat 2, Comedian 3, Musician 4
    "headliners": ["H25", "H33", "H48"],  # Variety 5, Magician 5, Musician 8
}


def new_game(players: int = 2, seed: int = 1, **setup: Any) -> BigTimeState:
    return ENGINE.new_game(NewGame(players, "standard", seed, setup=setup))


def two_player_game(**setup: Any) -> BigTimeState:
    """Seat 0 starts as the Smash (bonus card 1), seat 1 as the Flop, round one dealt as above."""
    setup.setdefault("deals", [TWO_PLAYER_DEAL])
    setup.setdefault("reviews", {0: "Smash", 1: "Flop"})
    return new_game(2, **setup)


def send(state: BigTimeState, seat: int, *actions: Action) -> tuple[BigTimeState, list[Event]]:
    """One accepted email; fails the test if it is refused."""
    result = ENGINE.submit(state, seat, actions)
    assert result.state is not None, f"refused: {result.refusal}"
    return result.state, result.events


def texts(events: list[Event], state: BigTimeState) -> list[str]:
    """The events as the game master reads them, players named "Player 1", "Player 2"."""
    return told_all(events, state)


def set_playbill(state: BigTimeState, seat: int, *acts: str | tuple[str, int]) -> None:
    """Put acts on a playbill directly; an act given as (card, n) carries a penalty marker -n."""
    state.theaters[seat].playbill = [
        Booking(act, (), 0) if isinstance(act, str) else Booking(act[0], (), act[1]) for act in acts
    ]
