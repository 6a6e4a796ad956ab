"""Hints list the real choices (issue 10): a missing or impossible BID is told every bid the
player could make, from their own hand, not "BID 0" as if it were the only one."""

from __future__ import annotations

from pbem.games.bigtime import ENGINE
from pbem.games.bigtime.actions import Bid, PreferAM, PreferHeadliner
from pbem.games.bigtime.orders import bid_choices
from tests.bigtime.helpers import send, two_player_game


def test_bid_choices_name_the_hand_and_bidding_nothing() -> None:
    assert bid_choices((3, 3, 2, 1, 1)) == (
        "BID any of your money cards, e.g. BID 3 2 1, or BID 0",
    )
    assert bid_choices((2, 2)) == ("BID any of your money cards, e.g. BID 2, or BID 0",)
    assert bid_choices(()) == ("BID 0",)  # no money cards: then it is the only bid


def test_an_email_without_a_bid_is_told_every_bid_it_could_make() -> None:
    result = ENGINE.submit(two_player_game(), 1, [PreferAM(("T01",))])
    assert result.refusal is not None
    assert str(result.refusal) == (
        "Round 1, phase 1 needs a BID line; you hold 3 3 3 3 2 2 2 2 1 1 1 1 ($24). "
        "(legal now: BID any of your money cards, e.g. BID 3 2 1, or BID 0)"
    )


def test_a_bid_of_cards_not_held_is_told_the_same_choices() -> None:
    result = ENGINE.submit(two_player_game(), 1, [Bid((3, 3, 3, 3, 3))])
    assert result.refusal is not None
    assert result.refusal.legal == bid_choices(two_player_game().theaters[1].hand)


def test_a_phase_three_email_without_headliner_is_told_the_codes_and_the_default() -> None:
    state = two_player_game()
    for _ in range(2):  # phases 1 and 2: both seats bid nothing
        state, _ = send(state, 0, Bid(()))
        state, _ = send(state, 1, Bid(()))
    assert state.phase == 3
    result = ENGINE.submit(state, 0, [])
    assert result.refusal is not None
    assert result.refusal.legal == (
        "HEADLINER with any of H1 H2 H3, best first, e.g. HEADLINER H2 H1",
        "HEADLINER alone for the default pick",
    )
    assert send(state, 0, PreferHeadliner(()))[0].theaters[0].headliner_prefs == ()
