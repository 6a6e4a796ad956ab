"""The city board: choosing a city, ranking below equal values, touring companies."""

from __future__ import annotations

import pytest

from pbem.games.showmanager import ENGINE
from pbem.games.showmanager.actions import Stage
from tests.showmanager.sm_tables import (
    BEST,
    WOLF_18,
    WOLF_21,
    WOLF_24,
    act,
    city_of,
    force_stage,
    fresh,
    give,
)


def test_first_production_must_name_a_city() -> None:
    state = fresh(variant="queen", first=0)
    give(state, 0, *BEST["Wolf"])
    refusal = ENGINE.check(state, 0, Stage("Wolf", BEST["Wolf"]))
    assert refusal is not None
    assert "must name a city" in refusal.reason and "Troisdorf" in refusal.reason
    assert refusal.legal == ("STAGE WOLF 65 69 81 IN NEW YORK",)


def test_first_production_needs_a_city_holding_no_musical() -> None:
    state = fresh(variant="queen", first=0)
    force_stage(state, 0, "Queenie", BEST["Queenie"], "Köln")
    give(state, 1, *BEST["Wolf"])
    refusal = ENGINE.check(state, 1, Stage("Wolf", BEST["Wolf"], "Koeln"))
    assert refusal is not None and "Köln already has a musical" in refusal.reason


def test_example_stagings_spell_the_city_as_the_board_does() -> None:
    state = fresh(2, "queen", first=0)  # two productions of each musical
    force_stage(state, 0, "Wolf", WOLF_24, "Köln")
    give(state, 0, *WOLF_18)
    state.turn = 0
    refusal = ENGINE.check(state, 0, Stage("Wolf", (68, 33, 1)))
    assert refusal is not None and "card #1 is not in your hand" in refusal.reason
    assert refusal.legal == ("STAGE WOLF 68 33 87 IN KÖLN",)
    # Play-testing: "(87)" after the reason read as a riddle; the hand is said in words.
    assert "card #1 is not in your hand: your hand holds #" in refusal.reason


def test_later_productions_go_to_the_musicals_city() -> None:
    state = fresh(variant="queen", first=0)
    force_stage(state, 0, "Wolf", WOLF_24, "Hamburg")
    force_stage(state, 1, "Wolf", WOLF_21)
    assert city_of(state, "Hamburg") == [(0, 24), (1, 21)]


def test_naming_another_city_for_a_later_production_is_an_error() -> None:
    state = fresh(variant="queen", first=0)
    force_stage(state, 0, "Wolf", WOLF_24, "Hamburg")
    give(state, 1, *WOLF_21)
    refusal = ENGINE.check(state, 1, Stage("Wolf", WOLF_21, "Köln"))
    assert refusal is not None and "Wolf plays in Hamburg" in refusal.reason
    assert ENGINE.check(state, 1, Stage("Wolf", WOLF_21, "Hamburg")) is None


def test_unknown_city_is_refused() -> None:
    state = fresh(variant="queen", first=0)
    give(state, 0, *BEST["Wolf"])
    refusal = ENGINE.check(state, 0, Stage("Wolf", BEST["Wolf"], "Paris"))
    assert refusal is not None and "no city called Paris" in refusal.reason


def test_equal_values_stand_in_arrival_order() -> None:
    state = fresh(variant="queen", first=0)
    force_stage(state, 0, "Wolf", WOLF_21, "Hamburg")
    # 59 Sir Wuff 7, 32 Red Riding Hood 7, 17 Grandmother 4: 18 + 3 = 21 as well.
    force_stage(state, 1, "Wolf", (59, 32, 17))
    force_stage(state, 2, "Wolf", BEST["Wolf"])
    assert city_of(state, "Hamburg") == [(2, 30), (0, 21), (1, 21)]


@pytest.mark.parametrize(
    ("variant", "players", "touring"),
    [
        ("standard", 2, [17, 13]),
        ("standard", 3, []),
        ("standard", 4, [17, 13]),
        ("standard", 5, [15]),
        ("standard", 6, []),
        ("queen", 4, []),
        ("premiere", 4, [17, 13]),
        ("premiere", 5, [15]),
        ("premiere", 6, []),
    ],
)
def test_touring_companies_enter_with_a_musicals_first_production(
    variant: str, players: int, touring: list[int]
) -> None:
    state = fresh(players, variant, first=0)
    force_stage(state, 0, "Wolf", WOLF_18, "Köln")
    assert city_of(state, "Köln") == [(0, 18), *((None, value) for value in touring)]


def test_a_production_equal_to_a_touring_chip_ranks_below_it() -> None:
    state = fresh(5, "standard", first=0)
    # 43 Sir Wuff 6, 33 Red Riding Hood 5, a provincial 1: 12 + 3 = 15, the touring value.
    force_stage(state, 0, "Wolf", (43, 33, 114), "Köln")
    assert city_of(state, "Köln") == [(None, 15), (0, 15)]


def test_premiere_game_accepts_both_themes_names() -> None:
    state = fresh(4, "premiere", first=0)
    give(state, 0, *WOLF_18)
    act(state, 0, Stage("Freudi", WOLF_18, "Duisburg"))
    give(state, 1, *WOLF_21)
    act(state, 1, Stage("WOLF", WOLF_21, "koeln"))
    assert city_of(state, "Köln") == [(1, 21), (0, 18), (None, 17), (None, 13)]
