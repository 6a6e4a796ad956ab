"""What each seat sees (RULINGS.md, Public and Private), short codes, and example order lines."""

from __future__ import annotations

from pbem.games.bigtime import ENGINE
from pbem.games.bigtime.actions import Bid, Hook, PreferAM, PreferHeadliner

from .helpers import TWO_PLAYER_DEAL, send, two_player_game


def test_a_player_sees_only_their_own_hand() -> None:
    view = ENGINE.view(two_player_game(), 1)
    assert [private.seat for private in view.private] == [1]
    assert view.private[0].hand == (3, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1)


def test_money_left_and_card_count_are_public() -> None:
    view = ENGINE.view(two_player_game(), 1)
    assert [(t.money_left, t.cards_left) for t in view.theaters] == [(25, 13), (24, 12)]


def test_face_down_cards_are_hidden_from_players_but_not_the_game_master() -> None:
    state = two_player_game()
    stack = ENGINE.view(state, 0).coming_soon[0]
    assert stack.face_up.card == "T03" and stack.face_down == 2 and stack.hidden == ()
    assert ENGINE.view(state, 0).headliner_row == ()
    hidden = ENGINE.view(state, None).coming_soon[0].hidden
    assert [card.card for card in hidden] == ["T14", "H25"]


def test_game_master_sees_every_hand() -> None:
    assert [p.seat for p in ENGINE.view(two_player_game(), None).private] == [0, 1]


def test_a_bid_is_private_until_revealed() -> None:
    state, _ = send(two_player_game(), 0, Bid((3, 2)))
    assert ENGINE.view(state, 0).private[0].bid == (3, 2)
    others = ENGINE.view(state, 1)
    assert others.private[0].bid is None
    assert others.theaters[0].order_on_file and others.theaters[0].revealed_bid is None
    assert others.theaters[0].money_left == 25  # still in hand until revealed
    state, _ = send(state, 1, Bid((1,)))
    assert [t.revealed_bid for t in ENGINE.view(state, 1).theaters] == [(3, 2), (1,)]


def test_every_pick_and_payment_of_the_last_resolution_is_shown() -> None:
    state, _ = send(two_player_game(), 0, Bid((3, 2)))
    state, _ = send(state, 1, Bid((1,)))
    picks = ENGINE.view(state, 1).last_picks
    assert [(p.seat, p.row, p.act.card, p.paid) for p in picks] == [
        (0, "A.M.", "T11", (3,)),
        (1, "A.M.", "T01", (1,)),
        (0, "P.M.", "T22", (2,)),
        (1, "P.M.", "T17", ()),
    ]
    assert picks[-1].penalty == 1


def test_phase_two_shows_the_headliners_turned_up() -> None:
    state, _ = send(two_player_game(), 0, Bid(()))
    state, _ = send(state, 1, Bid(()))
    view = ENGINE.view(state, 0)
    assert view.coming_soon == ()
    assert [(o.code, o.act.card) for o in view.headliner_row] == [
        ("H1", "H25"),
        ("H2", "H33"),
        ("H3", "H48"),
    ]


def test_codes_name_the_rows_of_the_current_phase() -> None:
    state = two_player_game()
    codes = ENGINE.codes(state)
    assert codes["A1"] == "T01" and codes["P3"] == "T22" and "H1" not in codes
    for seat in (0, 1, 0, 1):
        state, _ = send(state, seat, Bid(()))
    assert ENGINE.codes(state) == dict(
        zip(("H1", "H2", "H3"), TWO_PLAYER_DEAL["headliners"], strict=True)
    )


def test_legal_summary_gives_example_lines() -> None:
    state = two_player_game()
    assert ENGINE.legal_summary(state, 1) == [
        "BID 3 2 1",  # a modest bid, not the whole hand
        "BID 0",
        "AM A1 A2 A3",
        "PM P1 P2 P3",
    ]
    for seat in (0, 1, 0, 1):
        state, _ = send(state, seat, Bid(()))
    assert ENGINE.legal_summary(state, 1) == ["HEADLINER H1 H2 H3", "HEADLINER", "HOOK T01"]


def test_the_chart_shows_space_and_tier() -> None:
    state = two_player_game(opinion={"Variety": 5})
    marker = next(m for m in ENGINE.view(state, 0).chart if m.act_type == "Variety")
    assert (marker.space, marker.tier, marker.posterity) == (5, "Showtime", 1)


def test_last_show_marks_the_hook() -> None:
    state = two_player_game()
    for seat in (0, 1, 0, 1):
        state, _ = send(state, seat, Bid(()))
    for seat in (0, 1):
        state, _ = send(state, seat, PreferHeadliner(()))
    shows = [t.last_show for t in ENGINE.view(state, 0).theaters]
    assert [sum(act.hooked for act in show) for show in shows] == [0, 1]
    assert all(len(show) == 5 for show in shows)


def test_a_hook_choice_on_an_act_another_player_booked_is_not_shown_as_standing() -> None:
    # Found in play-testing: Ann's "HOOK T16" still showed after Bo had booked T16.
    state = two_player_game()
    wanted = state.am_row[0]
    state, _ = send(state, 0, Hook(wanted), Bid(()))
    assert ENGINE.view(state, 0).private[0].hook == wanted
    state, _ = send(state, 1, PreferAM((wanted,)), Bid((3,)))  # Bo picks first and books it
    assert any(booking.card == wanted for booking in state.theaters[1].playbill)
    assert ENGINE.view(state, 0).private[0].hook is None
