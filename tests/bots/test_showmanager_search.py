"""Show Manager's strong player searches around its policy's email where its hand could stage:
the candidates it tries, and the email it sends."""

from __future__ import annotations

from pbem.games.base import NewGame
from pbem.games.rng import Rng
from pbem.games.search import Budget
from pbem.games.showmanager import ENGINE
from pbem.games.showmanager.actions import Hire, Loan, Stage
from pbem.games.showmanager.legal import stageable
from pbem.games.showmanager.strong import StrongPlayer, determinize, first_budget
from pbem.games.showmanager.strong_policy import strong_actions
from pbem.games.showmanager.strong_search import candidates

# Iterations, not seconds, end each search, so a seed fixes the decision on any machine.
BUDGET = Budget(iterations=2, cpu_seconds=600.0, wall_seconds=600.0)


def test_the_candidates_are_the_policy_email_then_stagings_and_a_hire_after_its_loan() -> None:
    state = ENGINE.new_game(NewGame(4, "standard", 3))
    searched = stagings = 0
    while state.turn is not None:
        seat = state.turn
        first = strong_actions(state, seat, Rng(seat))
        emails = candidates(state, seat, first)
        assert emails[0] == first
        assert len({repr(email) for email in emails}) == len(emails), "no email twice"
        if not stageable(state, seat):
            assert emails == [first], "nothing to stage: the policy's email, no search"
        searched += len(emails) > 1
        for email in emails[1:]:
            assert email[:-1] == first[:-1], "the policy's loan, if any, leads every email"
            assert all(isinstance(action, Loan) for action in email[:-1])
            assert isinstance(email[-1], Hire | Stage)
            stagings += isinstance(email[-1], Stage)
            assert ENGINE.submit(state, seat, email).accepted, email
        state = ENGINE.submit(state, seat, first).state
        assert state is not None
    assert searched and stagings


def test_the_strong_player_sends_one_of_its_candidates() -> None:
    state = ENGINE.new_game(NewGame(4, "standard", 8))
    dice = Rng(8)
    player = StrongPlayer(state.data, BUDGET)
    for _ in range(16):
        seat = state.turn
        assert seat is not None
        view = ENGINE.view(state, seat)
        seed = dice.next64()
        email = player(view, Rng(seed))
        # the player's first draw of the dice samples the state its candidates are made on
        rng = Rng(seed)
        prior = determinize(view, state.data, Rng(rng.next64()))
        assert email in candidates(prior, seat, strong_actions(prior, seat, rng))
        assert player(ENGINE.view(state, (seat + 1) % 4), Rng(seed)) == [], "not its turn"
        state = ENGINE.submit(state, seat, email).state
        assert state is not None


def test_a_first_production_may_take_three_times_the_search_and_2_5_s_on_the_clock() -> None:
    assert first_budget(Budget(16, 0.5, 2.0)) == Budget(48, 1.5, 2.5)
    assert first_budget(BUDGET) == Budget(6, 1800.0, 600.0), "iterations still end a test's"
