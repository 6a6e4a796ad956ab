"""Hand limits when staging, and the stuck-hand ruling on hires."""

from __future__ import annotations

from pbem.games.showmanager import ENGINE, GameState
from pbem.games.showmanager.actions import Hire, Stage
from tests.showmanager.sm_tables import BEST, PROVINCIALS, act, force_stage, fresh, give


def only_wolf_left(seat: int = 0) -> GameState:
    state = fresh(variant="queen", first=seat)
    force_stage(state, seat, "Queenie", BEST["Queenie"], "Hamburg")
    force_stage(state, seat, "King Lear", BEST["King Lear"], "Stuttgart")
    force_stage(state, seat, "Ballet", BEST["Ballet"], "Troisdorf")
    state.turn = seat
    return state


def test_staging_may_leave_at_most_2_cards_in_hand() -> None:
    state = fresh(variant="queen", first=0)
    give(state, 0, *BEST["Wolf"], *PROVINCIALS[:3])
    refusal = ENGINE.check(state, 0, Stage("Wolf", BEST["Wolf"], "Köln"))
    assert refusal is not None
    assert "keep 3 cards but at most 2 may stay" in refusal.reason
    state.players[0].hand.remove(PROVINCIALS[0])
    act(state, 0, Stage("Wolf", BEST["Wolf"], "Köln"))
    assert len(state.players[0].hand) == 2


def test_the_last_production_may_leave_at_most_1_card_in_hand() -> None:
    state = only_wolf_left()
    give(state, 0, *BEST["Wolf"], *PROVINCIALS[:2])
    refusal = ENGINE.check(state, 0, Stage("Wolf", BEST["Wolf"], "Köln"))
    assert refusal is not None
    assert "keep 2 cards but at most 1 may stay" in refusal.reason
    state.players[0].hand.remove(PROVINCIALS[0])
    act(state, 0, Stage("Wolf", BEST["Wolf"], "Köln"))
    assert state.productions_left(0) == 0


def test_staging_needs_exactly_as_many_cards_as_roles() -> None:
    state = fresh(variant="queen", first=0)
    give(state, 0, *BEST["Wolf"], PROVINCIALS[0])
    refusal = ENGINE.check(state, 0, Stage("Wolf", (*BEST["Wolf"], PROVINCIALS[0]), "Köln"))
    assert refusal is not None and "name exactly 3 cards, not 4" in refusal.reason


def test_hire_refused_when_no_remaining_production_could_be_staged_afterwards() -> None:
    # All four musicals left: the biggest (Ballet, 6 roles) allows 6 + 2 = 8 cards.
    state = fresh(variant="queen", first=0)
    give(state, 0, *PROVINCIALS[:8])
    refusal = ENGINE.check(state, 0, Hire(slot=0))
    assert refusal is not None and "none of your remaining productions" in refusal.reason
    assert all(line.startswith("STAGE BALLET") for line in refusal.legal)
    state.players[0].hand.pop()
    assert ENGINE.check(state, 0, Hire(slot=0)) is None


def test_stuck_hand_limit_counts_only_one_card_after_the_last_production() -> None:
    state = only_wolf_left()
    give(state, 0, *PROVINCIALS[:4])  # Wolf: 3 roles + 1
    assert ENGINE.check(state, 0, Hire(slot=0)) is not None
    state.players[0].hand.pop()
    assert ENGINE.check(state, 0, Hire(slot=0)) is None


def test_stuck_hand_limit_follows_the_biggest_musical_still_to_stage() -> None:
    state = fresh(variant="queen", first=0)
    force_stage(state, 0, "Ballet", BEST["Ballet"], "Troisdorf")
    state.turn = 0
    give(state, 0, *PROVINCIALS[:7])  # King Lear: 5 roles + 2
    assert ENGINE.check(state, 0, Hire(slot=0)) is not None
