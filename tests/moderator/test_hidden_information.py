"""No email to a player shows another player's hand, money (Show Manager), unrevealed bid, or a
face-down card (The Big Time!). Every status email of 200 random games of each kind is rendered
from the recipient's view and searched for what that player must not see."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest

from pbem.games.base import NewGame
from pbem.games.registry import engine_for
from pbem.games.rng import Rng
from pbem.moderator.render import render

GAMES = 200
SENTINEL_MONEY = 987_654  # no real figure of either game comes near it


def _emails(game: str, state: Any, engine: Any, seat: int, names: list[str]) -> str:
    view = engine.view(state, seat)
    text, html = render(
        "status",
        title="t",
        game_id="x-1",
        events=[],
        game=game,
        view=view,
        names=names,
        viewer=seat,
        examples=[],
        deadline=None,
    )
    return text + html


def _states(game: str, players: int, seed: int, every: int = 7):
    engine = engine_for(game)
    state = engine.new_game(NewGame(players, "standard", seed))
    rng = Rng.from_seed(seed)
    step = 0
    while True:
        seat = engine.awaiting(state)[0]
        for action in engine.random_actions(state, seat, rng):
            engine.apply(state, seat, action)
        if engine.is_over(state):
            return  # money is shown to all in the final result, for the tie-break
        step += 1
        if step % every == 0:
            yield engine, state


@pytest.mark.parametrize("index", range(GAMES))
def test_show_manager_emails_hide_other_hands_and_money(index):
    players = 2 + index % 5
    names = [f"P{n}" for n in range(players)]
    for engine, state in _states("showmanager", players, index, every=29):
        copy = engine.load(engine.dump(state))
        for seat, player in enumerate(copy.players):
            player.money = SENTINEL_MONEY + seat
        for seat in range(players):
            email = _emails("showmanager", copy, engine, seat, names)
            assert str(SENTINEL_MONEY + seat) in email
            for other, player in enumerate(copy.players):
                if other == seat:
                    continue
                assert str(SENTINEL_MONEY + other) not in email, (
                    f"seat {seat} sees money of {other}"
                )
                for card in player.hand:
                    name = copy.data.cards[card].name
                    seen = re.search(rf"\b{re.escape(name)}\b", email)
                    assert seen is None, f"seat {seat} sees {name} in seat {other}'s hand"


@pytest.mark.parametrize("index", range(GAMES))
def test_big_time_emails_hide_hands_bids_and_face_down_cards(index):
    players = 2 + index % 3
    names = [f"P{n}" for n in range(players)]
    for engine, state in _states("bigtime", players, index, every=5):
        gm_view = engine.view(state, None)
        # Troupers return to the deck each round, so only a face-down Headliner's name is news.
        hidden = {
            card.name
            for stack in gm_view.coming_soon
            for card in stack.hidden
            if card.kind == "headliner"
        }
        for seat in range(players):
            view = engine.view(state, seat)
            assert [p.seat for p in view.private] == [seat]
            assert all(not stack.hidden for stack in view.coming_soon)
            email = _emails("bigtime", state, engine, seat, names)
            for name in hidden:
                assert name not in email, f"seat {seat} sees face-down {name}"
            flat = repr(dataclasses.asdict(view))
            for other in gm_view.private:
                if other.seat != seat and other.bid:
                    assert f"'bid': {other.bid!r}" not in flat or other.bid == view.private[0].bid
