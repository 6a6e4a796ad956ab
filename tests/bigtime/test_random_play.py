"""Properties of random legal play for 2, 3 and 4 players, saving and loading, and simulation."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.cli.simulate import simulate
from pbem.games.base import Event
from pbem.games.bigtime import ENGINE
from pbem.games.bigtime.state import BigTimeState
from pbem.games.registry import engine_for
from pbem.games.rng import Rng

from .helpers import new_game

PLAYERS = st.sampled_from([2, 3, 4])
SEEDS = st.integers(min_value=0, max_value=2**63)


def play_email(state: BigTimeState, rng: Rng) -> list[Event]:
    """One random legal email of the first awaited seat, applied in place."""
    seat = ENGINE.awaiting(state)[0]
    events = []
    for action in ENGINE.random_actions(state, seat, rng):
        assert ENGINE.check(state, seat, action) is None
        events += ENGINE.apply(state, seat, action)
    return events


@settings(max_examples=40, deadline=None)
@given(players=PLAYERS, seed=SEEDS)
def test_random_legal_play_keeps_the_rules(players: int, seed: int) -> None:
    state = new_game(players, seed=seed)
    rng = Rng.from_seed(seed)
    data = state.data
    headliners_dealt = list(state.headliner_row)
    held = [theater.hand for theater in state.theaters]
    posterity = [0] * players
    rounds_played = 0
    while not ENGINE.is_over(state):
        round_before = state.round
        play_email(state, rng)
        assert all(data.bottom <= space <= data.top for space in state.chart.values())
        now = [theater.posterity for theater in state.theaters]
        assert all(after >= before for after, before in zip(now, posterity, strict=True))
        posterity = now
        for theater, start in zip(state.theaters, held, strict=True):
            assert not Counter(theater.hand) - Counter(start)  # only cards held at round start
        if state.round == round_before and not ENGINE.is_over(state):
            continue
        rounds_played += 1
        for theater, start in zip(state.theaters, held, strict=True):
            kinds = sorted(data.acts[b.card].kind for b in theater.last_show)
            assert kinds == ["headliner"] + ["trouper"] * 4
            assert sum(sum(b.paid) for b in theater.last_show) <= sum(start)
        if not ENGINE.is_over(state):
            headliners_dealt += state.headliner_row
            held = [theater.hand for theater in state.theaters]
    assert rounds_played == data.rounds
    assert len(headliners_dealt) == len(set(headliners_dealt)) == data.rounds * (players + 1)
    halls = [card for theater in state.theaters for card in theater.hall_of_fame]
    assert len(halls) == len(set(halls))


@settings(max_examples=25, deadline=None)
@given(players=PLAYERS, seed=SEEDS, stop=st.integers(min_value=0, max_value=60))
def test_dump_and_load_mid_game_continues_identically(players: int, seed: int, stop: int) -> None:
    state = new_game(players, seed=seed)
    rng = Rng.from_seed(seed)
    for _ in range(stop):
        if ENGINE.is_over(state):
            break
        play_email(state, rng)
    saved = json.loads(json.dumps(ENGINE.dump(state)))
    copy = ENGINE.load(saved)
    assert ENGINE.dump(copy) == saved
    copy_rng = Rng(rng.state)
    while not ENGINE.is_over(state):
        assert play_email(state, rng) == play_email(copy, copy_rng)
    assert ENGINE.is_over(copy)
    assert ENGINE.dump(copy) == ENGINE.dump(state)
    assert ENGINE.outcome(copy) == ENGINE.outcome(state)


@settings(max_examples=10, deadline=None)
@given(players=PLAYERS, seed=SEEDS)
def test_submit_leaves_the_given_state_untouched(players: int, seed: int) -> None:
    state = new_game(players, seed=seed)
    before = ENGINE.dump(state)
    seat = ENGINE.awaiting(state)[0]
    result = ENGINE.submit(state, seat, ENGINE.random_actions(state, seat, Rng(seed)))
    assert result.accepted and ENGINE.dump(state) == before


@pytest.mark.parametrize("players", [2, 3, 4])
def test_simulation_finishes_every_game(players: int) -> None:
    report = simulate(engine_for("bigtime"), "standard", players, games=100, seed=1)
    assert report.finished == 100
