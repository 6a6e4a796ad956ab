"""Loans: against own productions, 1-10 points, once per production, once a turn, the cut-off."""

from __future__ import annotations

from pbem.games.showmanager import ENGINE
from pbem.games.showmanager.actions import Hire, Loan, Refresh
from tests.showmanager.sm_tables import (
    BEST,
    WOLF_18,
    WOLF_21,
    WOLF_24,
    act,
    city_of,
    force_stage,
    fresh,
)
from tests.support.told import told


def test_loan_lowers_the_value_pays_money_and_reranks_below_equal_values() -> None:
    state = fresh(variant="queen", first=0)
    force_stage(state, 0, "Wolf", WOLF_24, "Hamburg")
    force_stage(state, 1, "Wolf", WOLF_21)
    state.turn = 0
    money = state.players[0].money
    events = ENGINE.apply(state, 0, Loan("Wolf", 3))
    assert city_of(state, "Hamburg") == [(1, 21), (0, 21)]
    assert state.players[0].money == money + 3
    assert state.cities[1][1].loaned
    assert any(e.to is None and "borrowed 3 points on Wolf#1" in told(e, state) for e in events)
    assert any(e.to == (0,) and f"have {money + 3}" in told(e, state, 0) for e in events)


def test_loan_needs_an_own_production_on_the_board() -> None:
    state = fresh(variant="queen", first=0)
    refusal = ENGINE.check(state, 0, Loan("Wolf", 3))
    assert refusal is not None and "no production of Wolf" in refusal.reason
    # No loan is legal: the refusal names what is (play-testing: it named nothing).
    assert "HIRE 0" in refusal.legal and not any(line.startswith("LOAN") for line in refusal.legal)


def test_loan_is_1_to_10_points_and_never_below_0() -> None:
    state = fresh(variant="queen", first=0)
    force_stage(state, 0, "Wolf", BEST["Wolf"], "Hamburg")
    force_stage(state, 1, "Wolf", (43, 110, 111))  # 6 + 1 + 1 + 3 = 11
    state.turn = 0
    assert ENGINE.check(state, 0, Loan("Wolf", 11)) is not None
    assert ENGINE.check(state, 0, Loan("Wolf", 0)) is not None
    assert ENGINE.check(state, 0, Loan("Wolf", 10)) is None
    state.turn = 1
    state.cities[1][1].value = 4
    refusal = ENGINE.check(state, 1, Loan("Wolf", 5))
    assert refusal is not None and "1 to 4 points" in refusal.reason
    assert refusal.legal == ("LOAN WOLF#1 <1-4 points>",)
    act(state, 1, Loan("Wolf", 4))
    assert city_of(state, "Hamburg")[-1] == (1, 0)


def test_a_loan_refusal_says_which_limit_of_the_rule_applies() -> None:
    state = fresh(variant="queen", first=0)
    force_stage(state, 0, "Wolf", BEST["Wolf"], "Hamburg")
    force_stage(state, 1, "Wolf", (43, 110, 111))  # 6 + 1 + 1 + 3 = 11
    state.turn = 1
    refusal = ENGINE.check(state, 1, Loan("Wolf", 11))
    assert refusal is not None and refusal.reason == (
        "Wolf#1 is worth 11: you may borrow 1 to 10 points against it (a loan is at most 10 points)"
    )
    state.cities[1][1].value = 4
    refusal = ENGINE.check(state, 1, Loan("Wolf", 5))
    assert refusal is not None and refusal.reason == (
        "Wolf#1 is worth 4: you may borrow 1 to 4 points against it "
        "(a loan may not take it below 0)"
    )
    # Re-check: LOAN WOLF 0 named the "below 0" limit.
    refusal = ENGINE.check(state, 1, Loan("Wolf", 0))
    assert refusal is not None and refusal.reason.endswith("(a loan is at least 1 point)")


def test_one_loan_per_production_per_game() -> None:
    state = fresh(variant="queen", first=0)
    force_stage(state, 0, "Wolf", BEST["Wolf"], "Hamburg")
    state.turn = 0
    act(state, 0, Loan("Wolf", 2))
    act(state, 0, Hire(slot=0))
    state.turn = 0
    refusal = ENGINE.check(state, 0, Loan("Wolf", 2))
    assert refusal is not None and "already borrowed against Wolf#1" in refusal.reason


def test_one_loan_per_turn() -> None:
    state = fresh(variant="queen", first=0)
    force_stage(state, 0, "Wolf", BEST["Wolf"], "Hamburg")
    force_stage(state, 0, "Queenie", BEST["Queenie"], "Köln")
    state.turn = 0
    result = ENGINE.submit(state, 0, [Loan("Wolf", 1), Loan("Queenie", 1)])
    assert result.refused_index == 1
    assert result.refusal is not None and "already taken a loan this turn" in result.refusal.reason


def test_loan_after_a_refresh_in_the_same_turn_is_refused_even_in_a_later_email() -> None:
    state = fresh(variant="queen", first=0)
    force_stage(state, 0, "Wolf", BEST["Wolf"], "Hamburg")
    state.turn = 0
    within = ENGINE.submit(state, 0, [Refresh(), Loan("Wolf", 1)])
    assert within.refused_index == 1
    first = ENGINE.submit(state, 0, [Refresh()])
    assert first.state is not None
    later = ENGINE.submit(first.state, 0, [Loan("Wolf", 1)])
    assert later.refusal is not None and "before any refresh" in later.refusal.reason


def test_with_two_productions_of_a_musical_only_one_may_ever_be_borrowed_against() -> None:
    state = fresh(2, "queen", first=0)
    force_stage(state, 0, "Wolf", WOLF_24, "Hamburg")
    force_stage(state, 0, "Wolf", WOLF_18)
    state.turn = 0
    bare = ENGINE.check(state, 0, Loan("Wolf", 1))
    assert bare is not None and "Wolf#1 and Wolf#2" in bare.reason
    act(state, 0, Loan("Wolf", 1, number=2))
    act(state, 0, Hire(slot=0))
    state.turn = 0
    refusal = ENGINE.check(state, 0, Loan("Wolf", 1, number=1))
    assert refusal is not None and "already borrowed against Wolf#2" in refusal.reason


def test_no_loans_once_every_chip_of_the_musical_is_on_the_board() -> None:
    state = fresh(variant="queen", first=0)
    for seat, cards in enumerate([WOLF_24, WOLF_21, WOLF_18]):
        force_stage(state, seat, "Wolf", cards, "Hamburg" if seat == 0 else None)
    state.turn = 0
    assert ENGINE.check(state, 0, Loan("Wolf", 1)) is None
    force_stage(state, 3, "Wolf", BEST["Wolf"])
    state.turn = 0
    refusal = ENGINE.check(state, 0, Loan("Wolf", 1))
    assert refusal is not None and "all chips of Wolf are on the board" in refusal.reason


def test_loan_cut_off_counts_touring_companies() -> None:
    # 5 players, one touring set: 5 player chips + 1 touring chip.
    state = fresh(5, "standard", first=0)
    hands = [WOLF_24, WOLF_21, WOLF_18, BEST["Wolf"], (12, 110, 111)]
    for seat, cards in enumerate(hands[:4]):
        force_stage(state, seat, "Wolf", cards, "Hamburg" if seat == 0 else None)
    state.turn = 0
    assert ENGINE.check(state, 0, Loan("Wolf", 1)) is None
    force_stage(state, 4, "Wolf", hands[4])
    assert len(city_of(state, "Hamburg")) == 6
    state.turn = 0
    assert ENGINE.check(state, 0, Loan("Wolf", 1)) is not None


def test_legal_summary_lists_each_loanable_production_with_its_range() -> None:
    state = fresh(2, "queen", first=0)
    force_stage(state, 0, "Wolf", WOLF_24, "Hamburg")
    force_stage(state, 0, "Queenie", BEST["Queenie"], "Köln")
    state.turn = 0
    assert ENGINE.legal_summary(state, 0)[:2] == [
        "LOAN WOLF#1 <1-10 points>",
        "LOAN QUEENIE#1 <1-10 points>",
    ]
