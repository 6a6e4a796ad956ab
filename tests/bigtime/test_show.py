"""Phases 4-7 and the end: Box Office, reviews, the Hook, Public Opinion, Posterity, Clean-up,
and the tie-breaks (RULINGS.md and the rulebook's worked examples)."""

from __future__ import annotations

from pbem.games.bigtime import ENGINE
from pbem.games.bigtime.actions import Bid, PreferHeadliner
from pbem.games.bigtime.show import (
    award_reviews,
    clean_up,
    icons_score,
    move_marker,
    move_opinion,
    place_hook,
    playbill_value,
    score_posterity,
    take_box_office,
)
from pbem.games.bigtime.state import BigTimeState

from .helpers import new_game, send, set_playbill, two_player_game

# Five act types, values 1 + 2 + 3 + 4 + 6 = 16.
VARIED_BILL = ("T01", "T06", "T15", "T20", "H46")


def test_box_office_worked_example_16_less_1_plus_1() -> None:
    state = new_game(2)
    set_playbill(state, 0, "T01", ("T06", 1), "T15", "T20", "H46")
    assert playbill_value(state.data, state.theaters[0].playbill) == (16, 1, 1)
    take_box_office(state)
    assert state.theaters[0].box_office == 16


def test_variety_bonus_needs_five_different_types() -> None:
    state = new_game(2)
    set_playbill(state, 0, "T01", "T02", "T15", "T20", "H46")  # two Variety acts
    assert playbill_value(state.data, state.theaters[0].playbill) == (1 + 2 + 3 + 4 + 6, 0, 0)


def _reviews_after(state: BigTimeState) -> list[str]:
    take_box_office(state)
    award_reviews(state)
    return [theater.review for theater in state.theaters]


def test_reviews_go_best_to_highest_box_office() -> None:
    state = new_game(3, reviews={0: "Smash", 1: "So-So", 2: "Flop"})
    set_playbill(state, 0, "T01", "T05", "T09", "T13", "H25")  # 1+1+1+1+5
    set_playbill(state, 1, "T04", "T08", "T12", "T16", "H28")  # 4+4+4+4+8
    set_playbill(state, 2, "T02", "T06", "T10", "T14", "H26")  # 2+2+2+2+6
    assert _reviews_after(state) == ["Flop", "Smash", "So-So"]


def test_review_tie_in_round_one_goes_to_the_worse_starting_review() -> None:
    state = new_game(3, reviews={0: "Smash", 1: "So-So", 2: "Flop"})
    set_playbill(state, 0, "T04", "T08", "T12", "T16", "H28")
    set_playbill(state, 1, "T01", "T05", "T09", "T13", "H25")
    set_playbill(state, 2, "T04", "T08", "T12", "T16", "H28")  # ties seat 0
    assert _reviews_after(state) == ["So-So", "Flop", "Smash"]


def test_review_tie_in_a_later_round_goes_to_the_worse_previous_review() -> None:
    state = two_player_game()  # starts: seat 0 Smash, seat 1 Flop
    state, _ = send(state, 0, Bid(()))  # seat 0 books on nothing: penalties, the Flop
    state, _ = send(state, 1, Bid((3, 3, 3, 3)))
    state, _ = send(state, 0, Bid(()))
    state, _ = send(state, 1, Bid((2, 2, 2, 2)))
    for seat in (0, 1):
        state, _ = send(state, seat, PreferHeadliner(()))
    assert state.round == 2
    assert [t.review for t in state.theaters] == ["Flop", "Smash"]
    for seat in (0, 1):
        set_playbill(state, seat, *VARIED_BILL)
    assert _reviews_after(state) == ["Smash", "Flop"]


def test_the_hook_takes_the_lowest_act_after_penalty() -> None:
    state = new_game(2)
    set_playbill(state, 1, "T02", ("T04", 3), "T07", "T12", "H25")  # T04 is worth 1
    place_hook(state, 1)
    assert state.theaters[1].hooked == "T04"


def test_the_hook_tie_goes_to_the_trouper_booked_last() -> None:
    state = new_game(2)
    set_playbill(state, 1, "T01", "T05", "T07", "T12", "H25")  # T01 and T05 both worth 1
    place_hook(state, 1)
    assert state.theaters[1].hooked == "T05"


def test_the_hook_tie_follows_the_players_hook_choice() -> None:
    state = new_game(2)
    set_playbill(state, 1, "T01", "T05", "T07", "T12", "H25")
    state.theaters[1].hook_choice = "T01"
    place_hook(state, 1)
    assert state.theaters[1].hooked == "T01"


def test_a_hook_choice_that_is_not_among_the_lowest_is_ignored() -> None:
    state = new_game(2)
    set_playbill(state, 1, "T01", "T05", "T07", "T12", "H25")
    state.theaters[1].hook_choice = "T07"
    place_hook(state, 1)
    assert state.theaters[1].hooked == "T05"


def test_the_hook_tie_takes_a_trouper_before_the_headliner() -> None:
    state = new_game(2)
    set_playbill(state, 1, "T02", "T05", "T07", "T12", ("H25", 4))  # H25 worth 1, as T05
    place_hook(state, 1)
    assert state.theaters[1].hooked == "T05"


def test_a_hooked_headliner_leaves_the_game_instead_of_the_hall_of_fame() -> None:
    state = new_game(2)
    set_playbill(state, 1, "T02", "T06", "T07", "T12", ("H25", 5))  # H25 worth 0
    place_hook(state, 1)
    assert state.theaters[1].hooked == "H25"
    clean_up(state)
    assert state.theaters[1].hall_of_fame == []


def test_the_hooked_act_takes_no_part_in_public_opinion_or_posterity() -> None:
    state = new_game(2, opinion={"Comedians": 2})
    set_playbill(state, 1, "T02", "T06", "T07", "T12", ("T20", 4))  # T20 Comedians worth 0
    place_hook(state, 1)
    move_opinion(state, 1, up=False)
    assert state.chart["Comedians"] == 2
    state.chart["Comedians"] = 13  # The Big Time: T20 would score 3 if it were not hooked
    score_posterity(state)
    assert state.theaters[1].posterity == icons_score(state, ["T02", "T06", "T07", "T12"])


def test_public_opinion_worked_example_moves_four_then_three() -> None:
    state = new_game(2, opinion={"Magicians & Ventriloquists": 2, "Comedians": 3})
    set_playbill(state, 0, "T01", "T05", "T21", "T13", "H33")  # Magician Headliner: 2 icons
    before = dict(state.chart)
    move_opinion(state, 0, up=True)
    assert state.chart["Magicians & Ventriloquists"] == 2 + 4 + 3
    assert state.chart["Comedians"] == before["Comedians"]  # no icon: the marker stays


def test_chart_moves_cross_tiers_by_the_tier_each_move_starts_in() -> None:
    data = new_game(2).data
    assert [move_marker(data, space, up=True) for space in (4, 8, 12)] == [8, 11, 14]
    assert [move_marker(data, space, up=False) for space in (13, 9, 5)] == [9, 6, 3]


def test_chart_moves_stop_at_both_ends() -> None:
    data = new_game(2).data
    assert move_marker(data, 16, up=True) == 16
    assert move_marker(data, 15, up=True) == 16
    assert move_marker(data, 1, up=False) == 1
    assert move_marker(data, 2, up=False) == 1


def test_smash_moves_markers_before_the_flop() -> None:
    state = new_game(2, opinion={"Variety": 4})
    # Smash and Flop each have one Variety icon: up from 4 (Small Time, +4) to 8, then down
    # from 8 (Showtime, -2) to 6. The other order would give 4 -> 3 -> 7.
    set_playbill(state, 0, "T01", "T05", "T09", "T13", "H37")
    set_playbill(state, 1, "T02", "T06", "T10", "T14", "H38")
    move_opinion(state, 0, up=True)
    move_opinion(state, 1, up=False)
    assert state.chart["Variety"] == 6


def test_posterity_worked_example_scores_11() -> None:
    state = new_game(2)
    state.chart.update(
        {
            "Magicians & Ventriloquists": 10,  # Hot Time
            "Animal Acts": 9,  # Hot Time
            "Variety": 5,  # Showtime
            "Acrobats & Jugglers": 8,  # Showtime
            "Musicians": 13,  # The Big Time
            "Comedians": 2,  # Small Time
        }
    )
    # A Magician Headliner (two icons), then Animal, Variety, Juggler and Musician Troupers.
    bill = ["H34", "T06", "T02", "T14", "T22"]
    hall_of_fame = ["H42"]  # a Comedian Headliner: two icons in Small Time
    assert icons_score(state, bill + hall_of_fame) == 4 + 2 + 1 + 1 + 3


def test_posterity_counts_the_hall_of_fame_every_round() -> None:
    state = two_player_game()
    for seat in (0, 1, 0, 1):
        state, _ = send(state, seat, Bid(()))
    for seat in (0, 1):
        state, _ = send(state, seat, PreferHeadliner(()))
    theater = state.theaters[0]
    assert theater.hall_of_fame  # seat 0's Headliner was not hooked (seat 0 held more money)
    before = theater.posterity
    expected = icons_score(state, theater.hall_of_fame)
    set_playbill(state, 0, "T01", "T05", "T09", "T13", "H37")
    set_playbill(state, 1, "T02", "T06", "T10", "T14", "H38")
    score_posterity(state)
    assert theater.posterity == before + expected + icons_score(
        state, [b.card for b in theater.playbill]
    )


def _finished_game() -> BigTimeState:
    state = new_game(3, seed=7)
    while not ENGINE.is_over(state):
        seat = ENGINE.awaiting(state)[0]
        state, _ = send(state, seat, *ENGINE.default_actions(state, seat))
    return state


def test_most_posterity_wins() -> None:
    state = _finished_game()
    for seat, points in enumerate((30, 41, 35)):
        state.theaters[seat].posterity = points
    outcome = ENGINE.outcome(state)
    assert outcome.winner == 1
    assert [s.score for s in outcome.standings] == [41, 35, 30]


def test_posterity_tie_is_broken_by_scoring_the_hall_of_fame_again() -> None:
    state = _finished_game()
    state.chart.update({"Variety": 13, "Musicians": 2})  # Big Time: 3 a icon; Small Time: 0
    for seat, hall in enumerate((["H45"], ["H25"], ["H46"])):
        state.theaters[seat].posterity = 40
        state.theaters[seat].hall_of_fame = hall
    assert ENGINE.outcome(state).winner == 1


def test_remaining_tie_goes_to_the_lower_final_review() -> None:
    state = _finished_game()
    for seat, review in enumerate(("Smash", "Flop", "So-So")):
        state.theaters[seat].posterity = 40
        state.theaters[seat].hall_of_fame = ["H25"]
        state.theaters[seat].review = review
    outcome = ENGINE.outcome(state)
    assert outcome.winner == 1
    assert [s.seat for s in outcome.standings] == [1, 2, 0]


def test_money_in_the_outcome_is_the_cards_in_hand() -> None:
    state = _finished_game()
    assert {s.money for s in ENGINE.outcome(state).standings} == {24}  # reset at clean-up
