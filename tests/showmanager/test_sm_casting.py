"""Casting: talents, miscasts, provincial actors, the bonus, the optimiser, explicit roles."""

from __future__ import annotations

from itertools import permutations

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.games.showmanager.actions import Stage
from pbem.games.showmanager.casting import best_casting
from pbem.games.showmanager.components import Components, load_components
from tests.showmanager.sm_tables import BEST, PROVINCIALS, act, city_of, fresh, give

DATA = load_components()
WOLF, QUEENIE, KING_LEAR, BALLET = range(4)


def brute_force(
    data: Components, musical: int, cards: tuple[int, ...], fixed: dict[int, int]
) -> int:
    """The best total over every assignment of the cards to the roles that keeps `fixed`."""
    roles = data.role_counts[musical]
    best = -1
    for order in permutations(cards):
        if any(order[role] != card for card, role in fixed.items()):
            continue
        points = sum(data.points[musical][card][role] for role, card in enumerate(order))
        fit = all(data.fits(musical, card, role) for role, card in enumerate(order))
        best = max(best, points + (roles if fit else 0))
    return best


def test_no_miscast_earns_a_bonus_equal_to_the_number_of_roles() -> None:
    for musical, name in enumerate(BEST):
        casting = best_casting(DATA, musical, BEST[name])
        roles = DATA.role_counts[musical]
        assert casting.bonus == roles
        assert casting.value == 9 * roles + roles


def test_a_miscast_card_scores_0_and_loses_the_bonus() -> None:
    # 7 Felix Rampenlicht only plays Queenie: in Wolf he is miscast.
    casting = best_casting(DATA, WOLF, (65, 69, 7))
    assert casting.bonus == 0
    assert casting.value == 18


def test_provincial_actors_score_1_anywhere_and_are_never_miscast() -> None:
    casting = best_casting(DATA, WOLF, (65, PROVINCIALS[0], PROVINCIALS[1]))
    assert casting.value == 9 + 1 + 1 + 3
    assert best_casting(DATA, BALLET, PROVINCIALS[:6]).value == 6 + 6


def test_the_optimiser_gives_up_points_for_the_bonus_when_that_pays() -> None:
    # 12 Leo Souffleur: Sir Wuff 3; 2 Hugo Sopranova: Sir Wuff 3; 17 Max Laber: Grandmother 4,
    # Sir Wuff 3. Both 3s want Sir Wuff; only a casting with a miscast is possible here.
    cards = (12, 2, 17)
    assert best_casting(DATA, WOLF, cards).value == brute_force(DATA, WOLF, cards, {})
    # 59 Sir Wuff 7 (Court Jester 2), 17 Grandmother 4 (Sir Wuff 3), 5 Red Riding Hood 3:
    # all fit: 7 + 4 + 3 + 3 bonus = 17.
    casting = best_casting(DATA, WOLF, (59, 17, 5))
    assert casting.value == 17 and casting.bonus == 3


def test_casting_lists_the_card_of_each_role_in_cast_list_order() -> None:
    casting = best_casting(DATA, WOLF, (81, 65, 69))
    assert casting.cast == (65, 69, 81)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_optimiser_agrees_with_brute_force_over_all_assignments(data: st.DataObject) -> None:
    musical = data.draw(st.integers(0, 3))
    roles = DATA.role_counts[musical]
    cards = tuple(
        data.draw(
            st.lists(
                st.sampled_from(sorted(DATA.cards)), min_size=roles, max_size=roles, unique=True
            )
        )
    )
    fixed_cards = data.draw(st.lists(st.sampled_from(cards), unique=True, max_size=roles))
    fixed_roles = data.draw(st.permutations(range(roles)))
    fixed = dict(zip(fixed_cards, fixed_roles, strict=False))
    casting = best_casting(DATA, musical, cards, fixed)
    assert casting.value == brute_force(DATA, musical, cards, fixed)
    assert sorted(casting.cast) == sorted(cards)
    assert all(casting.cast[role] == card for card, role in fixed.items())
    points = sum(DATA.points[musical][card][role] for role, card in enumerate(casting.cast))
    assert casting.value == points + casting.bonus


def test_staging_honours_an_explicit_casting_from_the_player() -> None:
    state = fresh(variant="queen", first=0)
    give(state, 0, *BEST["Wolf"])
    # Swapping two roles miscasts both: 9 + 0 + 0, no bonus.
    act(state, 0, Stage("Wolf", BEST["Wolf"], "Köln", ((65, "Red Riding Hood"), (69, "Sir Wuff"))))
    assert city_of(state, "Köln") == [(0, 9)]


def test_staging_without_casting_uses_the_best_casting() -> None:
    state = fresh(variant="queen", first=0)
    give(state, 0, 81, 69, 65)
    act(state, 0, Stage("Wolf", (81, 69, 65), "Köln"))
    assert city_of(state, "Köln") == [(0, 30)]
    assert state.cities[2][0].cards == (65, 69, 81)
