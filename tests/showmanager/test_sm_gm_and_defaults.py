"""Game-master corrections, and the default orders of a player who sent none."""

from __future__ import annotations

import pytest

from pbem.games.showmanager import ENGINE, ShowManagerError
from pbem.games.showmanager.actions import Hire, Stage
from tests.showmanager.sm_tables import (
    BEST,
    PROVINCIALS,
    WOLF_21,
    WOLF_24,
    city_of,
    force_stage,
    fresh,
    give,
)
from tests.support.told import told


def test_gm_sets_money_and_tells_only_that_player_the_amount() -> None:
    state = fresh()
    events = ENGINE.set_money(state, 2, 40)
    assert state.players[2].money == 40
    assert [e.to for e in events if "40" in told(e, state)] == [(2,)]
    with pytest.raises(ShowManagerError):
        ENGINE.set_money(state, 2, -1)


def test_gm_sets_a_chips_value_and_reranks_it_below_equal_values() -> None:
    state = fresh(variant="queen", first=0)
    force_stage(state, 0, "Wolf", WOLF_24, "Hamburg")
    force_stage(state, 1, "Wolf", WOLF_21)
    ENGINE.set_value(state, 0, "Wolf", 1, 21)
    assert city_of(state, "Hamburg") == [(1, 21), (0, 21)]
    ENGINE.set_value(state, 0, "Wolf", None, 30)
    assert city_of(state, "Hamburg") == [(0, 30), (1, 21)]
    with pytest.raises(ShowManagerError):
        ENGINE.set_value(state, 2, "Wolf", 1, 5)


def test_default_hires_the_free_card_when_it_may() -> None:
    state = fresh(first=0)
    assert ENGINE.default_actions(state, 0) == [Hire(slot=0)]
    assert ENGINE.default_actions(state, 1) == []


def test_default_stages_the_best_production_when_no_hire_is_allowed() -> None:
    state = fresh(variant="queen", first=0)
    give(state, 0, *BEST["Ballet"], *PROVINCIALS[:2])
    [order] = ENGINE.default_actions(state, 0)
    assert isinstance(order, Stage)
    assert (order.musical, sorted(order.cards), order.city) == (
        "Ballet",
        sorted(BEST["Ballet"]),
        "New York",
    )
