"""What each seat sees: the public board, its own hand and money, the game master everything."""

from __future__ import annotations

import pytest

from pbem.games.showmanager import ENGINE, ShowManagerError
from pbem.games.showmanager.actions import Loan, Refresh
from tests.showmanager.sm_tables import BEST, WOLF_18, act, force_stage, fresh, give


def test_a_player_sees_only_their_own_hand_and_money() -> None:
    state = fresh(first=0)
    give(state, 0, 1, 2)
    give(state, 1, 3)
    view = ENGINE.view(state, 1)
    mine, theirs = view.players[1], view.players[0]
    assert mine.money == 18 and mine.hand is not None and [c.id for c in mine.hand] == [3]
    assert theirs.money is None and theirs.hand is None
    assert theirs.hand_size == 2


def test_the_game_master_sees_every_hand_and_all_money() -> None:
    state = fresh(first=0)
    give(state, 2, 5)
    view = ENGINE.view(state, None)
    assert all(p.money == 18 and p.hand is not None for p in view.players)
    assert view.players[2].hand is not None and view.players[2].hand[0].talents == (
        ("Black Swan", 6),
        ("Red Riding Hood", 3),
    )


def test_public_board_shows_display_sizes_and_chips_from_the_top() -> None:
    state = fresh(first=0)
    force_stage(state, 0, "Wolf", WOLF_18, "Köln")
    view = ENGINE.view(state, 3)
    assert [slot.cost for slot in view.display] == [0, 1, 2, 3]
    assert all(slot.card is not None for slot in view.display)
    assert view.deck_size == len(state.deck) and view.discard_size == 0
    koeln = next(city for city in view.cities if city.name == "Köln")
    assert [(c.owner, c.shown, c.value, c.loaned) for c in koeln.chips] == [
        (0, "Wolf#1", 18, False),
        (None, "touring Wolf (17)", 17, False),
        (None, "touring Wolf (13)", 13, False),
    ]
    assert view.musicals[0].city == "Köln"
    assert view.players[0].productions_left == 3


def test_money_is_shown_to_everyone_once_the_game_is_over() -> None:
    state = fresh(first=0)
    state.turn = None
    assert all(p.money == 18 for p in ENGINE.view(state, 1).players)


def test_phase_flags_follow_the_turn_order() -> None:
    state = fresh(variant="queen", first=0)
    force_stage(state, 0, "Wolf", BEST["Wolf"], "Hamburg")
    state.turn = 0
    assert ENGINE.view(state, 0).loan_allowed
    act(state, 0, Loan("Wolf", 1))
    view = ENGINE.view(state, 0)
    assert not view.loan_allowed and view.refresh_allowed
    assert not any(line.startswith("LOAN") for line in view.legal)
    act(state, 0, Refresh())
    assert not ENGINE.view(state, 0).loan_allowed


def test_premiere_game_shows_premiere_names_and_knows_both() -> None:
    state = fresh(5, "premiere", first=0)
    force_stage(state, 0, "Wolf", WOLF_18, "Köln")
    view = ENGINE.view(state, 0)
    wolf = view.musicals[0]
    assert (wolf.name, wolf.premiere_name, wolf.shown) == ("Wolf", "Freudi", "Freudi")
    assert wolf.roles == ("Sir Wuff", "Red Riding Hood", "Grandmother")
    koeln = view.cities[2]
    assert (koeln.name, koeln.shown) == ("Köln", "Duisburg")
    assert koeln.chips[0].shown == "Freudi#1"


def test_legal_summary_gives_example_order_lines() -> None:
    state = fresh(variant="queen", first=0)
    force_stage(state, 0, "Wolf", (65, 69, 81), "Köln")
    give(state, 0, *BEST["Queenie"])
    state.turn = 0
    lines = ENGINE.legal_summary(state, 0)
    assert lines[0] == "LOAN WOLF#1 <1-10 points>"
    assert "REFRESH" in lines and "HIRE 0" in lines
    assert "STAGE QUEENIE 7 18 25 91 IN NEW YORK" in lines
    assert ENGINE.legal_summary(state, 1) == []


def test_view_of_an_unknown_seat_is_an_error() -> None:
    with pytest.raises(ShowManagerError):
        ENGINE.view(fresh(), 4)
