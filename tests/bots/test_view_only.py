"""Computer players decide from their seat's view alone.

Each level is a function of the view (what the seat's status email shows) and dice. Two games
that differ only in what the seat cannot see (the other hands, face-down cards, the deck, sealed
orders, hidden money, the dice of later deals) show it the same view, so every level decides the
same in both for the same seed; and the full states the strong player samples from a view show
exactly that view again.
"""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any

import pytest

from pbem.games.bigtime import strong as bigtime_strong
from pbem.games.bigtime.views import BigTimeView
from pbem.games.levels import LEVELS, computer_player
from pbem.games.registry import engine_for
from pbem.games.rng import Rng
from pbem.games.search import Budget
from pbem.games.showmanager import strong as showmanager_strong
from pbem.games.showmanager.view import GameView

from .hidden import bigtime_unseen_changed, game_after, showmanager_unseen_changed

# Iterations, not seconds, end each search, so a seed fixes the decision on any machine.
BUDGET = Budget(iterations=2, cpu_seconds=600.0, wall_seconds=600.0)
CHANGED = {"bigtime": bigtime_unseen_changed, "showmanager": showmanager_unseen_changed}
DETERMINIZE = {
    "bigtime": bigtime_strong.determinize,
    "showmanager": showmanager_strong.determinize,
}
# (game, players, seed, random emails played first): early, middle and late positions
POSITIONS = [
    ("bigtime", 4, 3, 2),
    ("bigtime", 3, 5, 9),
    ("bigtime", 2, 8, 17),
    ("showmanager", 4, 3, 9),
    ("showmanager", 3, 4, 40),
    ("showmanager", 2, 6, 70),
]


def waiting_seat(game: str, state: Any) -> int:
    seats = engine_for(game).awaiting(state)
    assert seats, "the position must be one where somebody has orders to give"
    return seats[-1]


@pytest.mark.parametrize("game", ["bigtime", "showmanager"])
def test_the_strong_player_is_given_the_view_and_dice_only(game: str) -> None:
    player = computer_player(game, "strong", None)
    signature = inspect.signature(type(player).__call__)
    assert list(signature.parameters) == ["self", "view", "rng"]
    view_type = {"bigtime": BigTimeView, "showmanager": GameView}[game]
    assert signature.parameters["view"].annotation in (view_type, view_type.__name__)


@pytest.mark.parametrize(("game", "players", "seed", "emails"), POSITIONS)
def test_unseen_cards_changed_give_the_same_view_and_the_same_decisions(
    game: str, players: int, seed: int, emails: int
) -> None:
    engine = engine_for(game)
    state = game_after(game, players, seed, emails)
    seat = waiting_seat(game, state)
    other = CHANGED[game](state, seat, Rng(seed))
    assert engine.dump(other) != engine.dump(state), "something hidden must differ"
    view = engine.view(state, seat)
    assert engine.view(other, seat) == view
    for level in LEVELS:
        player = computer_player(game, level, state.data, BUDGET)
        for dice in range(2):
            first = player(engine.view(state, seat), Rng(dice))
            second = player(engine.view(other, seat), Rng(dice))
            assert first == second, (level, dice)
            assert engine.submit(state, seat, first).accepted, (level, first)
            assert engine.submit(other, seat, second).accepted, (level, second)


@pytest.mark.parametrize("game", ["bigtime", "showmanager"])
def test_a_sampled_state_shows_the_seat_exactly_its_view(game: str) -> None:
    engine = engine_for(game)
    for seed in range(12):
        state = game_after(game, 2 + seed % 3, seed, 4 * seed)
        if engine.is_over(state):
            continue
        for seat in range(len(engine.outcome(state).standings)):
            view = engine.view(state, seat)
            sampled = DETERMINIZE[game](view, state.data, Rng(seed * 31 + seat))
            assert _without_sealed_orders(engine.view(sampled, seat)) == _without_sealed_orders(
                view
            )


def test_sampled_hidden_cards_vary_with_the_dice() -> None:
    engine = engine_for("showmanager")
    state = game_after("showmanager", 4, 2, 12)
    view = engine.view(state, 0)
    hands = {
        tuple(showmanager_strong.determinize(view, state.data, Rng(dice)).players[1].hand)
        for dice in range(10)
    }
    assert len(hands) > 1


def _without_sealed_orders(view: Any) -> Any:
    """Whether another player has sealed a Big Time! order is public, but the sample leaves the
    order to be decided again (it cannot know it), so that flag is set aside."""
    if not isinstance(view, BigTimeView):
        return view
    theaters = tuple(dataclasses.replace(t, order_on_file=False) for t in view.theaters)
    return dataclasses.replace(view, theaters=theaters)
