"""The turn: loan, refreshes, then hire or stage; emails all or nothing; finished players."""

from __future__ import annotations

from pbem.games.base import NewGame
from pbem.games.showmanager import ENGINE
from pbem.games.showmanager.actions import Hire, Loan, Refresh, Stage
from tests.showmanager.sm_tables import BEST, act, force_stage, fresh, give
from tests.support.told import told


def test_first_player_is_random_from_the_seed_unless_given() -> None:
    firsts = {ENGINE.new_game(NewGame(4, "standard", seed)).turn for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert (
        ENGINE.new_game(NewGame(4, "standard", 3)).turn
        == ENGINE.new_game(NewGame(4, "standard", 3)).turn
    )
    assert ENGINE.new_game(NewGame(4, "standard", 3, first_player=2)).turn == 2


def test_starting_money_is_36_for_2_or_3_players_and_18_for_4_to_6() -> None:
    for players, money in [(2, 36), (3, 36), (4, 18), (5, 18), (6, 18)]:
        assert {p.money for p in fresh(players).players} == {money}


def test_orders_out_of_turn_are_refused() -> None:
    state = fresh(first=0)
    refusal = ENGINE.check(state, 1, Hire(slot=0))
    assert refusal is not None and "Player 1's turn" in refusal.reason


def test_hire_or_stage_passes_the_turn_clockwise() -> None:
    state = fresh(first=3)
    act(state, 3, Hire(slot=0))
    assert ENGINE.awaiting(state) == (0,)


def test_the_turn_stays_open_after_a_loan_or_a_refresh() -> None:
    state = fresh(variant="queen", first=0)
    force_stage(state, 0, "Wolf", BEST["Wolf"], "Hamburg")
    state.turn = 0
    act(state, 0, Loan("Wolf", 1))
    assert ENGINE.awaiting(state) == (0,)
    act(state, 0, Refresh())
    assert ENGINE.awaiting(state) == (0,)
    act(state, 0, Refresh())
    act(state, 0, Hire(slot=0))
    assert ENGINE.awaiting(state) == (1,)


def test_one_email_may_hold_a_loan_refreshes_and_a_hire() -> None:
    state = fresh(variant="queen", first=0)
    force_stage(state, 0, "Wolf", BEST["Wolf"], "Hamburg")
    state.turn = 0
    result = ENGINE.submit(state, 0, [Loan("Wolf", 4), Refresh(), Refresh(), Hire(slot=3)])
    assert result.accepted and result.state is not None
    assert result.state.players[0].money == 18 + 4 - 2 - 2 - 3
    assert result.state.turn == 1


def test_a_refused_email_changes_nothing_and_shows_no_drawn_card() -> None:
    state = fresh(first=0)
    before = ENGINE.dump(state)
    result = ENGINE.submit(state, 0, [Refresh(), Hire(slot=7)])
    assert result.refused_index == 1
    assert result.state is None and result.events == []
    assert ENGINE.dump(state) == before


def test_refreshes_in_a_row_are_refused_with_the_money_the_player_has() -> None:
    state = fresh(first=0)  # four players: 18 each, a refresh costs 2
    result = ENGINE.submit(state, 0, [Refresh()] * 10 + [Hire(slot=2)])
    assert result.refused_index == 0 and result.refusal is not None
    assert result.refusal.reason == "10 refreshes cost 20 and you have 18: you can afford up to 9"
    assert result.refusal.legal == ("REFRESH", "HIRE 0", "HIRE 1", "HIRE 2", "HIRE 3")
    assert ENGINE.submit(state, 0, [Refresh()] * 9 + [Hire(slot=0)]).accepted


def test_submit_leaves_the_given_state_untouched_when_accepted() -> None:
    state = fresh(first=0)
    before = ENGINE.dump(state)
    result = ENGINE.submit(state, 0, [Refresh(), Hire(slot=0)])
    assert result.accepted
    assert ENGINE.dump(state) == before


def test_nothing_may_follow_a_hire_or_stage_in_the_same_email() -> None:
    state = fresh(2, "queen", first=0)
    state.players[1].staged = [2, 2, 2, 2]  # finished: the turn would come straight back to 0
    result = ENGINE.submit(state, 0, [Hire(slot=0), Hire(slot=0)])
    assert result.refused_index == 1
    assert result.refusal is not None and "ends your turn" in result.refusal.reason


def test_players_who_have_staged_everything_are_skipped() -> None:
    state = fresh(variant="queen", first=0)
    for musical, city in [("Wolf", "Köln"), ("Queenie", "Hamburg"), ("King Lear", "Stuttgart")]:
        force_stage(state, 1, musical, BEST[musical], city)
    give(state, 1, *BEST["Ballet"])
    state.turn = 1
    events = ENGINE.apply(state, 1, Stage("Ballet", BEST["Ballet"], "Troisdorf"))
    assert any("sits out" in told(e, state) for e in events)
    assert state.turn == 2
    act(state, 2, Hire(slot=0))
    act(state, 3, Hire(slot=0))
    act(state, 0, Hire(slot=0))
    assert state.turn == 2


def test_the_game_ends_when_every_production_is_on_the_board() -> None:
    state = fresh(2, "queen", first=0)
    state.players[1].staged = [2, 2, 2, 2]
    state.players[0].staged = [1, 2, 2, 2]
    give(state, 0, *BEST["Wolf"])
    events = ENGINE.apply(state, 0, Stage("Wolf", BEST["Wolf"], "Köln"))
    assert ENGINE.is_over(state)
    assert ENGINE.awaiting(state) == ()
    assert told(events[-1], state).startswith("The game is over")
    refusal = ENGINE.check(state, 0, Hire(slot=0))
    assert refusal is not None and "over" in refusal.reason
