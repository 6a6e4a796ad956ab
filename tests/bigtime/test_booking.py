"""Phases 1-3: orders, bids, pick order, and the rows (RULINGS.md, The Big Time!, Play)."""

from __future__ import annotations

from typing import Any

from pbem.games.bigtime import ENGINE
from pbem.games.bigtime.actions import Bid, Hook, PreferAM, PreferHeadliner, PreferPM
from pbem.games.bigtime.state import BigTimeState

from .helpers import TWO_PLAYER_DEAL, send, texts, two_player_game


def playbill(state: BigTimeState, seat: int) -> list[str]:
    return [booking.card for booking in state.theaters[seat].playbill]


def test_starting_hands_hold_the_money_and_the_smash_bonus_card() -> None:
    state = two_player_game()
    assert sum(state.theaters[0].hand) == 24 + 1  # two players: the Smash gets a 1
    assert sum(state.theaters[1].hand) == 24


def test_highest_bid_picks_first() -> None:
    state = two_player_game()
    state, _ = send(state, 0, PreferAM(("T11",)), Bid((1,)))
    state, _ = send(state, 1, PreferAM(("T11",)), Bid((3,)))
    assert playbill(state, 1)[0] == "T11"
    assert playbill(state, 0)[0] == "T01"  # $1 left: the best act it pays in full


def test_bid_tie_goes_to_the_worst_review() -> None:
    state = two_player_game()
    state, _ = send(state, 0, PreferAM(("T11",)), Bid((3,)))
    state, _ = send(state, 1, PreferAM(("T11",)), Bid((3,)))
    assert playbill(state, 1)[0] == "T11"  # seat 1 holds the Flop


def test_pm_picks_go_in_order_of_money_left_in_the_bid() -> None:
    state = two_player_game()
    state, _ = send(state, 0, PreferAM(("T11",)), Bid((3, 1)))  # A.M. first; $1 left
    state, _ = send(state, 1, PreferAM(("T01",)), Bid((2, 1)))  # A.M. second; $2 left
    assert playbill(state, 1) == ["T01", "T22"]  # first P.M. pick: the best act $2 pays
    assert playbill(state, 0) == ["T11", "T17"]


def test_leftover_acts_are_discarded_and_phase_two_rows_come_from_coming_soon() -> None:
    state = two_player_game()
    state, _ = send(state, 0, Bid(()))
    state, events = send(state, 1, Bid(()))
    assert any("discarded" in text and "T11" in text for text in texts(events, state))
    assert (state.round, state.phase) == (1, 2)
    assert state.am_row == TWO_PLAYER_DEAL["coming_am"]
    assert state.pm_row == TWO_PLAYER_DEAL["coming_pm"]
    assert set(ENGINE.codes(state)) == {"A1", "A2", "A3", "P1", "P2", "P3", "H1", "H2", "H3"}


def test_bid_leaves_the_hand_and_unspent_money_is_lost() -> None:
    state = two_player_game()
    state, _ = send(state, 0, PreferAM(("T01",)), PreferPM(("T17",)), Bid((3, 3, 3)))
    state, events = send(state, 1, Bid(()))
    assert sum(state.theaters[0].hand) == 25 - 9
    assert [b.paid for b in state.theaters[0].playbill] == [(3,), (3,)]
    assert "spent for the round: Player 1 3." in texts(events, state)[-2]


def test_later_email_replaces_the_earlier_order_whole() -> None:
    state = two_player_game()
    state, _ = send(state, 0, PreferAM(("T06",)), Bid((3, 3)))
    state, _ = send(state, 0, Bid((3,)))  # no A.M. line now: the default pick
    state, _ = send(state, 1, Bid(()))
    assert playbill(state, 0)[0] == "T11"
    assert sum(state.theaters[0].hand) == 25 - 3


def test_awaiting_lists_the_seats_without_an_order_on_file() -> None:
    state = two_player_game()
    assert ENGINE.awaiting(state) == (0, 1)
    state, _ = send(state, 1, Bid(()))
    assert ENGINE.awaiting(state) == (0,)


def test_own_bid_is_acknowledged_privately() -> None:
    state = two_player_game()
    _, events = send(state, 0, Bid((3, 2)))
    assert [event.to for event in events] == [(0,)]
    assert "bid 3 2 ($5)" in texts(events, state)[0]


def test_phases_one_and_two_need_a_bid() -> None:
    result = ENGINE.submit(two_player_game(), 0, [PreferAM(("T01",))])
    assert result.refusal is not None and "BID" in result.refusal.reason


def test_bid_of_cards_not_held_is_refused_naming_the_hand() -> None:
    result = ENGINE.submit(two_player_game(), 1, [Bid((3, 3, 3, 3, 3))])
    assert result.refusal is not None
    assert result.refusal.reason == ("You hold 3 3 3 3 2 2 2 2 1 1 1 1; you cannot bid 3 3 3 3 3.")


def test_preference_outside_its_row_is_refused_naming_the_row() -> None:
    result = ENGINE.submit(two_player_game(), 0, [PreferAM(("T16",)), Bid(())])
    assert result.refused_index == 0 and result.refusal is not None
    assert result.refusal.legal == ("A1 (T01)", "A2 (T06)", "A3 (T11)")


def test_an_act_named_twice_in_a_preference_line_is_refused() -> None:
    """Play-testing: `PM P1 P1` was taken and told back as "P.M. T12 T12"."""
    state = two_player_game()
    twice = state.pm_row[0]
    result = ENGINE.submit(state, 0, [PreferPM((twice, twice)), Bid(())])
    assert result.refusal is not None and result.refused_index == 0
    assert result.refusal.reason == f"{twice} is named twice: a PM line names each act once."
    assert result.refusal.legal[0] == f"P1 ({twice})"


def test_headliner_preferences_are_refused_in_phase_one() -> None:
    result = ENGINE.submit(two_player_game(), 0, [PreferHeadliner(("H25",)), Bid(())])
    assert result.refusal is not None and "phase 1" in result.refusal.reason


def test_refused_email_changes_nothing() -> None:
    state = two_player_game()
    result = ENGINE.submit(state, 0, [Hook("T01"), Bid((3, 3, 3, 3, 3, 3))])
    assert result.state is None and result.refused_index == 1
    assert state.theaters[0].hook_choice is None and state.theaters[0].order is None


def test_one_line_of_each_order_per_email() -> None:
    result = ENGINE.submit(two_player_game(), 0, [Bid(()), Bid((1,))])
    assert result.refused_index == 1


def _to_phase_three(**setup: Any) -> BigTimeState:
    state = two_player_game(**setup)
    for seat in (0, 1, 0, 1):
        state, _ = send(state, seat, Bid(()))
    assert state.phase == 3
    return state


def test_phase_three_bids_all_money_left_and_leftover_headliners_leave() -> None:
    state = _to_phase_three()
    state, _ = send(state, 1, PreferHeadliner(()))
    state, events = send(state, 0, PreferHeadliner(("H48",)))
    assert state.revealed_bids[0] == (3, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 1)
    told = "\n".join(texts(events, state))
    assert "Player 1 books H48 The Cornet King (Musicians, 8), paying 3 3 2 ($8)." in told
    assert "Player 2 books H25 Little Lulu LaRue (Variety, 5), paying 3 2 ($5)." in told
    assert "acts nobody booked leave the game: H33" in told
    assert state.round == 2  # phases 4-7 ran on their own


def test_bid_is_refused_in_phase_three() -> None:
    result = ENGINE.submit(_to_phase_three(), 0, [Bid((3,)), PreferHeadliner(())])
    assert result.refused_index == 0


def test_phase_three_needs_a_headliner_line() -> None:
    result = ENGINE.submit(_to_phase_three(), 0, [Hook("T01")])
    assert result.refusal is not None and "HEADLINER" in result.refusal.reason


def test_headliner_preferences_sent_in_phase_two_resolve_phase_three_at_once() -> None:
    state = two_player_game()
    for seat in (0, 1):
        state, _ = send(state, seat, Bid(()))
    state, _ = send(state, 0, PreferHeadliner(("H33",)), Bid(()))
    state, _ = send(state, 1, PreferHeadliner(()), Bid(()))
    assert (state.round, state.phase) == (2, 1)
    assert state.theaters[0].hall_of_fame == ["H33"]


def test_phase_three_waits_for_missing_headliner_preferences() -> None:
    state = two_player_game()
    for seat in (0, 1):
        state, _ = send(state, seat, Bid(()))
    state, _ = send(state, 0, PreferHeadliner(("H33",)), Bid(()))
    state, _ = send(state, 1, Bid(()))
    assert (state.phase, ENGINE.awaiting(state)) == (3, (1,))
    state, _ = send(state, 1, PreferHeadliner(()))
    assert state.round == 2


def test_phase_two_email_without_headliner_line_drops_earlier_preferences() -> None:
    state = two_player_game()
    for seat in (0, 1):
        state, _ = send(state, seat, Bid(()))
    state, _ = send(state, 0, PreferHeadliner(("H33",)), Bid(()))
    state, _ = send(state, 0, Bid(()))
    state, _ = send(state, 1, PreferHeadliner(()), Bid(()))
    assert ENGINE.awaiting(state) == (0,)


def test_bare_headliner_is_the_default_pick() -> None:
    state = _to_phase_three()
    state, _ = send(state, 0, PreferHeadliner(()))
    state, _ = send(state, 1, PreferHeadliner(()))
    # Seat 0 (more money) takes the highest-value Headliner it can pay: H48 (8).
    assert state.theaters[0].hall_of_fame == ["H48"]


def test_default_actions_are_bid_zero_then_bare_headliner() -> None:
    state = two_player_game()
    assert ENGINE.default_actions(state, 0) == [Bid(())]
    state = _to_phase_three()
    assert ENGINE.default_actions(state, 0) == [PreferHeadliner(())]


def test_hook_choice_is_kept_through_the_round_and_cleared_after() -> None:
    state = two_player_game()
    state, _ = send(state, 0, Hook("T01"), Bid(()))
    state, _ = send(state, 1, Bid(()))
    assert state.theaters[0].hook_choice == "T01"
    for seat in (0, 1):
        state, _ = send(state, seat, Bid(()))
    for seat in (0, 1):
        state, _ = send(state, seat, PreferHeadliner(()))
    assert state.round == 2 and state.theaters[0].hook_choice is None


def test_hook_on_another_players_act_is_refused_with_ones_own_acts() -> None:
    state = two_player_game()
    state, _ = send(state, 0, PreferAM(("T11",)), Bid((3,)))
    state, _ = send(state, 1, Bid(()))
    theirs, mine = playbill(state, 0)[0], playbill(state, 1)
    result = ENGINE.submit(state, 1, [Hook(theirs), Bid(())])
    assert result.state is None and result.refusal is not None
    assert result.refusal.reason.startswith(f"{theirs} is another player's act")
    assert result.refusal.legal == tuple(mine)
    # An act nobody has booked may still come to the player this round: taken.
    assert ENGINE.submit(state, 1, [Hook(state.am_row[0]), Bid(())]).state is not None


def test_hook_on_an_act_in_a_hall_of_fame_is_refused() -> None:
    """Play-testing: a Hook on an act in another player's Hall of Fame was taken, while one on
    their playbill was refused; neither can ever be the player's to flop with, nor can an act
    in their own Hall of Fame."""
    state = two_player_game()
    state, _ = send(state, 0, PreferAM(("T11",)), Bid((3,)))
    state, _ = send(state, 1, Bid(()))
    state.theaters[0].hall_of_fame.append("H44")
    state.theaters[1].hall_of_fame.append("H45")
    mine = tuple(playbill(state, 1))
    theirs = ENGINE.submit(state, 1, [Hook("H44"), Bid(())])
    assert theirs.refusal is not None and theirs.refusal.legal == mine
    assert theirs.refusal.reason.startswith("H44 is another player's act")
    own = ENGINE.submit(state, 1, [Hook("H45"), Bid(())])
    assert own.refusal is not None and own.refusal.legal == mine
    assert own.refusal.reason.startswith("H45 is in your Hall of Fame")


def test_phase_key_names_round_and_phase() -> None:
    state = two_player_game()
    assert ENGINE.view(state, 0).phase_key == "r1p1"
    assert ENGINE.view(_to_phase_three(), 0).phase_key == "r1p3"


def test_two_bids_in_one_email_are_refused_saying_what_to_do() -> None:
    state = two_player_game()
    result = ENGINE.submit(state, 0, [Bid((3,)), Bid((2,))])
    assert result.state is None and result.refusal is not None
    assert result.refusal.reason == (
        "Only one BID line per email: send it again with the BID line you mean."
    )
    assert result.refused_index == 1


def test_a_bid_in_phase_three_is_refused_on_its_line_saying_to_send_headliner() -> None:
    # Found in play-testing: "BID 3" alone was told "needs a HEADLINER line", and beside a
    # HEADLINER line the BID was not mentioned: three emails to learn what was wrong.
    state = _to_phase_three()
    for actions, index in (([Bid((3,))], 0), ([PreferHeadliner(()), Bid((3,))], 1)):
        result = ENGINE.submit(state, 0, actions)
        assert result.state is None and result.refused_index == index
        assert result.refusal is not None
        assert result.refusal.reason == (
            "In phase 3 your bid is all the money you have left: leave out the BID and send "
            "HEADLINER."
        )
        assert result.refusal.legal[0].startswith("HEADLINER with any of H1")
