"""Scoring: slot points of each player's chips; touring chips score nothing; the tie-breaks."""

from __future__ import annotations

from pbem.games.base import Event, Outcome
from pbem.games.showmanager import ENGINE, GameState
from pbem.games.showmanager.events import GameOver
from tests.showmanager.sm_tables import BEST, WOLF_18, WOLF_21, WOLF_24, force_stage, fresh


def game_over(result: Outcome) -> Event:
    return GameOver(tuple((s.seat, s.score, s.money) for s in result.standings), result.winner)


def test_score_is_the_points_of_the_slots_each_players_chips_hold() -> None:
    state = fresh(variant="queen", first=0)
    force_stage(state, 0, "Wolf", WOLF_21, "New York")  # New York: 24, 16, 10, 4, 1, 0
    force_stage(state, 1, "Wolf", WOLF_24)
    force_stage(state, 2, "Queenie", BEST["Queenie"], "Troisdorf")  # Troisdorf: 14, 12, ...
    force_stage(state, 3, "Wolf", WOLF_18)
    scores = {s.seat: s.score for s in ENGINE.outcome(state).standings}
    assert scores == {0: 16, 1: 24, 2: 14, 3: 10}


def test_touring_chips_take_slots_but_score_for_nobody() -> None:
    state = fresh(4, "standard", first=0)
    force_stage(state, 0, "Wolf", WOLF_18, "New York")  # 18 over touring 17 and 13
    force_stage(state, 1, "Wolf", (12, 110, 111))  # 3 + 1 + 1 + 3 = 8: fourth
    standings = ENGINE.outcome(state).standings
    assert {s.seat: s.score for s in standings} == {0: 24, 1: 4, 2: 0, 3: 0}
    assert sum(s.score for s in standings) == 24 + 4


def test_most_points_wins() -> None:
    state = fresh(variant="queen", first=0)
    force_stage(state, 0, "Wolf", WOLF_24, "New York")
    result = ENGINE.outcome(state)
    assert result.winner == 0
    assert result.standings[0].seat == 0


def tied_on_16_points() -> GameState:
    """Seat 0 tops Stuttgart (16); seat 1 is second in New York under a touring chip (16)."""
    state = fresh(4, "standard", first=0)
    force_stage(state, 0, "Queenie", BEST["Queenie"], "Stuttgart")  # 40 over touring 22, 18
    force_stage(state, 1, "Wolf", (43, 33, 114), "New York")  # 15: under 17, over 13
    return state


def test_tied_points_go_to_the_player_with_most_money() -> None:
    state = tied_on_16_points()
    state.players[0].money, state.players[1].money = 10, 11
    result = ENGINE.outcome(state)
    assert [(s.seat, s.score, s.money) for s in result.standings[:2]] == [(1, 16, 11), (0, 16, 10)]
    assert result.winner == 1


def test_tied_points_and_money_leave_no_single_winner() -> None:
    state = tied_on_16_points()
    state.players[0].money = state.players[1].money = 10
    result = ENGINE.outcome(state)
    assert result.winner is None
