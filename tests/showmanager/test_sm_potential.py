"""A hand's potential: the best staging it could make, and what one more card adds to it."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.games.showmanager.casting import best_casting
from pbem.games.showmanager.components import load_components
from pbem.games.showmanager.potential import added, potential

DATA = load_components()
CARDS = sorted(DATA.cards)
MUSICALS = range(len(DATA.musicals))


@settings(max_examples=300, deadline=None)
@given(
    musical=st.sampled_from(MUSICALS),
    hand=st.lists(st.sampled_from(CARDS), min_size=0, max_size=9, unique=True),
    card=st.sampled_from(CARDS),
)
def test_what_a_card_adds_in_one_step_is_what_the_grown_hand_gains(
    musical: int, hand: list[int], card: int
) -> None:
    if card in hand:
        return
    held = tuple(sorted(hand))
    grown = tuple(sorted((*hand, card)))
    assert added(DATA, musical, held, card) == potential(DATA, musical, grown) - potential(
        DATA, musical, held
    )
    assert added(DATA, musical, held, card) >= 0


@settings(max_examples=200, deadline=None)
@given(
    musical=st.sampled_from(MUSICALS),
    hand=st.lists(st.sampled_from(CARDS), min_size=7, max_size=9, unique=True),
)
def test_the_potential_is_the_best_staging_the_hand_can_make(musical: int, hand: list[int]) -> None:
    """`legal.best_stage` stops at the first casting worth the potential: no casting is worth
    more, and some casting of the hand's cards is worth exactly that."""
    roles = DATA.role_counts[musical]
    best = max(best_casting(DATA, musical, cards).value for cards in combinations(hand, roles))
    assert potential(DATA, musical, tuple(sorted(hand))) == best
