"""The agency: set-up, hiring with sliding, refreshing, reshuffling, running out of cards."""

from __future__ import annotations

from pbem.games.base import NewGame
from pbem.games.showmanager import ENGINE
from pbem.games.showmanager.actions import Hire, Refresh
from tests.showmanager.sm_tables import act, fresh
from tests.support.told import told


def test_setup_fills_slots_0_to_3_from_the_stacked_deck_top_first() -> None:
    state = ENGINE.new_game(NewGame(4, "standard", 5, setup={"deck": [17, 4, 88, 103, 9]}))
    assert state.display == [17, 4, 88, 103]
    assert state.deck[-1] == 9  # the next card drawn


def test_the_rest_of_a_stacked_deck_follows_shuffled_by_the_seed() -> None:
    def rest(seed: int) -> list[int]:
        state = ENGINE.new_game(NewGame(4, "standard", seed, setup={"deck": [1, 2]}))
        assert state.display[:2] == [1, 2]
        return [c for c in state.display[2:] if c is not None] + state.deck[::-1]

    assert rest(1) == rest(1)
    assert rest(1) != rest(2)
    assert sorted(rest(1)) == list(range(3, 121))


def test_hire_from_slot_k_costs_k() -> None:
    for slot in range(4):
        state = fresh(first=0)
        act(state, 0, Hire(slot=slot))
        assert state.players[0].money == 18 - slot


def test_hire_slides_dearer_cards_down_and_the_deck_top_enters_slot_3() -> None:
    state = ENGINE.new_game(
        NewGame(4, "standard", 5, first_player=0, setup={"deck": [10, 11, 12, 13, 14]})
    )
    act(state, 0, Hire(slot=1))
    assert state.display == [10, 12, 13, 14]
    assert state.players[0].hand == [11]


def test_hire_by_card_id_takes_that_card_at_its_slot_price() -> None:
    state = ENGINE.new_game(
        NewGame(4, "standard", 5, first_player=0, setup={"deck": [10, 11, 12, 13, 14]})
    )
    act(state, 0, Hire(card=12))
    assert state.players[0].hand == [12]
    assert state.players[0].money == 16


def test_hire_refused_when_the_slot_costs_more_than_the_money() -> None:
    state = fresh(first=0)
    state.players[0].money = 2
    refusal = ENGINE.check(state, 0, Hire(slot=3))
    assert refusal is not None
    assert "slot 3 costs 3 but you have 2" in refusal.reason
    assert refusal.legal == ("HIRE 0", "HIRE 1", "HIRE 2")


def test_hire_of_a_card_not_on_offer_names_the_cards_there_and_the_status_choices() -> None:
    state = ENGINE.new_game(
        NewGame(4, "standard", 5, first_player=0, setup={"deck": [10, 11, 12, 13, 14]})
    )
    refusal = ENGINE.check(state, 0, Hire(card=77))
    assert refusal is not None
    assert refusal.reason == (
        "card #77 is not in the agency: it offers #10 in slot 0, #11 in slot 1, #12 in slot 2, "
        "#13 in slot 3"
    )
    # A refresh may bring the card: the choices are the status email's, which has no loan or
    # staging to offer yet.
    assert refusal.legal == ("REFRESH", "HIRE 0", "HIRE 1", "HIRE 2", "HIRE 3")
    assert list(refusal.legal) == ENGINE.legal_summary(state, 0)


def test_refresh_costs_2_discards_the_display_then_draws_four() -> None:
    state = ENGINE.new_game(
        NewGame(4, "standard", 5, first_player=0, setup={"deck": list(range(1, 9))})
    )
    act(state, 0, Refresh())
    assert state.discard == [1, 2, 3, 4]
    assert state.display == [5, 6, 7, 8]
    assert state.players[0].money == 16


def test_refresh_refused_without_the_money() -> None:
    state = fresh(first=0)
    state.players[0].money = 1
    refusal = ENGINE.check(state, 0, Refresh())
    assert refusal is not None and "costs 2 but you have 1" in refusal.reason


def test_empty_deck_shuffles_the_discard_pile_into_a_new_deck() -> None:
    state = fresh(first=0)
    state.discard = state.deck[:-2]
    state.deck = state.deck[-2:]
    before = set(state.display) | set(state.deck) | set(state.discard)
    events = ENGINE.apply(state, 0, Refresh())
    assert any("became the new deck" in told(e, state) for e in events)
    assert state.discard == []
    assert set(state.display) | set(state.deck) == before
    assert None not in state.display


def test_without_deck_or_discard_slots_stay_empty_and_are_the_dearest() -> None:
    state = fresh(first=0)
    state.deck, state.discard = [], []
    act(state, 0, Hire(slot=1))
    assert state.display[3] is None
    assert all(card is not None for card in state.display[:3])
    state.turn = 0
    act(state, 0, Hire(slot=0))
    assert state.display[2:] == [None, None]


def test_refresh_with_only_the_display_left_reshuffles_those_cards() -> None:
    state = fresh(first=0)
    shown = set(state.display)
    state.deck, state.discard = [], []
    act(state, 0, Refresh())
    assert set(state.display) == shown
    assert state.deck == [] and state.discard == []


def test_hire_from_an_empty_slot_is_refused() -> None:
    state = fresh(first=0)
    state.deck, state.discard = [], []
    state.display[3] = None
    refusal = ENGINE.check(state, 0, Hire(slot=3))
    assert refusal is not None and "slot 3 is empty" in refusal.reason


def test_a_hire_is_told_to_all_and_the_money_left_only_to_the_hirer() -> None:
    state = ENGINE.new_game(
        NewGame(4, "standard", 5, first_player=0, setup={"deck": [10, 11, 12, 13, 14]})
    )
    public, private = ENGINE.apply(state, 0, Hire(slot=2))
    assert public.to is None
    assert told(public, state, 1) == (
        "Player 1 hired #12 Leo Souffleur from slot 2 for 2; #14 Otto Operettel enters slot 3."
    )
    assert told(public, state, 0).startswith("You hired #12 Leo Souffleur")
    assert private.to == (0,) and "have 16 left" in told(private, state, 0)
