"""Which act a player picks and which cards pay for it (RULINGS.md, "A pick" and "Paying")."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given
from hypothesis import strategies as st

from pbem.games.bigtime.components import load_components
from pbem.games.bigtime.payment import best_payment, choose_act, sub_multisets, without

ACTS = load_components().acts


def test_exact_payment_beats_overpaying() -> None:
    assert best_payment((2, 2, 1), 3) == (2, 1)


def test_overpayment_is_the_least_possible() -> None:
    assert best_payment((3, 2), 1) == (2,)


def test_rulebook_overpayment_with_only_twos() -> None:
    # Two $2 cards and only $1 acts left: one $2 card pays, and the overpayment is lost.
    assert best_payment((2, 2), 1) == (2,)


def test_equal_overpayment_pays_with_fewest_cards() -> None:
    assert best_payment((3, 2, 1), 3) == (3,)


def test_equal_count_pays_with_highest_cards() -> None:
    # 3+1 and 2+2 both pay 4 exactly with two cards; 3 1 is higher card for card.
    assert best_payment((3, 2, 2, 1), 4) == (3, 1)


@given(st.lists(st.sampled_from([1, 2, 3]), max_size=9), st.integers(min_value=1, max_value=8))
def test_payment_search_agrees_with_every_subset(cards: list[int], value: int) -> None:
    hand = tuple(sorted(cards, reverse=True))
    subsets = [c for n in range(len(hand) + 1) for c in combinations(hand, n) if sum(c) >= value]
    if not subsets:
        return
    expected = min(subsets, key=lambda c: (sum(c) - value, len(c), [-card for card in c]))
    assert best_payment(hand, value) == expected


@given(st.lists(st.sampled_from([1, 2, 3]), max_size=8))
def test_sub_multisets_are_every_distinct_selection(cards: list[int]) -> None:
    hand = tuple(sorted(cards, reverse=True))
    distinct = {c for n in range(len(hand) + 1) for c in combinations(hand, n)}
    assert sorted(sub_multisets(hand)) == sorted(distinct)


def test_without_keeps_order() -> None:
    assert without((3, 3, 2, 1, 1), (3, 1)) == (3, 2, 1)


def test_first_preference_that_can_be_paid_is_taken() -> None:
    row = ["T04", "T03", "T02"]  # values 4, 3, 2
    card, paid, penalty = choose_act(row, ACTS, (2, 1), ("T04", "T02", "T03"))
    assert (card, paid, penalty) == ("T02", (2,), 0)


def test_preference_no_longer_in_the_row_is_skipped() -> None:
    row = ["T03", "T02"]
    assert choose_act(row, ACTS, (3,), ("T01", "T03"))[0] == "T03"


def test_default_pick_is_the_highest_value_payable() -> None:
    row = ["T02", "T04", "T03"]  # values 2, 4, 3
    assert choose_act(row, ACTS, (3,), ()) == ("T03", (3,), 0)


def test_exhausted_preferences_fall_back_to_the_default_pick() -> None:
    row = ["T02", "T04", "T03"]
    assert choose_act(row, ACTS, (3,), ("T04",)) == ("T03", (3,), 0)


def test_default_pick_tie_goes_to_the_act_first_in_the_row() -> None:
    row = ["T01", "T07", "T03"]  # values 1, 3, 3
    assert choose_act(row, ACTS, (3, 1), ())[0] == "T07"


def test_underpayment_takes_lowest_act_with_all_cards_and_a_penalty() -> None:
    row = ["T04", "T03", "T08"]  # values 4, 3, 4
    assert choose_act(row, ACTS, (1, 1), ()) == ("T03", (1, 1), 1)


def test_underpayment_with_no_cards_pays_nothing() -> None:
    row = ["T04", "T02", "T06"]  # values 4, 2, 2: the first 2 is taken
    assert choose_act(row, ACTS, (), ("T04",)) == ("T02", (), 2)
