"""Game and round set-up: markers, reviews, money, and each round's rows, from the seed or from
the fixed set-up a transcript gives (REPLAY.md's `deals`, `opinion`, `reviews`)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from pbem.games.base import Event, NewGame
from pbem.games.bigtime.codec import dump_state, load_state
from pbem.games.bigtime.components import (
    HEADLINER,
    TROUPER,
    BigTimeData,
    BigTimeSetupError,
    load_components,
)
from pbem.games.bigtime.events import RoundDealt
from pbem.games.bigtime.state import BigTimeState, RoundDeal, Theater
from pbem.games.rng import Rng

VARIANTS: tuple[str, ...] = ("standard",)
SETUP_KEYS = ("deals", "opinion", "reviews")
TROUPER_ROWS = ("am", "pm", "coming_am", "coming_pm")
_FROM_THE_SEED = RoundDeal()  # a round the set-up fixes nothing of; never changed


def new_state(spec: NewGame) -> BigTimeState:
    data = load_components(spec.data_file)
    if spec.variant not in VARIANTS:
        raise BigTimeSetupError(f"unknown variant {spec.variant!r}: choose {', '.join(VARIANTS)}")
    if spec.players not in data.reviews:  # the player counts, without sorting them
        counts = ", ".join(map(str, data.player_counts))
        raise BigTimeSetupError(f"The Big Time! is for {counts} players, not {spec.players}")
    unknown = sorted(set(spec.setup) - set(SETUP_KEYS))
    if unknown:
        raise BigTimeSetupError(f"unknown set-up keys for The Big Time!: {', '.join(unknown)}")
    rng = Rng.from_seed(spec.seed)
    fixed_deals = _read_deals(data, spec.players, spec.setup.get("deals", []))
    named = {card for deal in fixed_deals.values() for card in deal.headliners or ()}
    # The set-up's Headliners are dealt when their round says, not from the deck.
    deck = (
        [card for card in data.headliners if card not in named] if named else list(data.headliners)
    )
    chart = _place_markers(data, spec.setup.get("opinion", {}), rng)
    reviews = _deal_reviews(data, spec.players, spec.setup.get("reviews", {}), rng)
    bonus = data.bonus_card.get(spec.players, {})
    theaters = [
        Theater(_starting_hand(data.money_cards, bonus.get(review)), review) for review in reviews
    ]
    state = BigTimeState(
        data=data,
        data_file=None if spec.data_file is None else str(spec.data_file),
        rng=rng,
        theaters=theaters,
        chart=chart,
        headliner_deck=deck,
        fixed_deals=fixed_deals,
    )
    deal_round(state)
    return state


def deal_round(state: BigTimeState) -> Event:
    """Phase 1 of `state.round`: the A.M. and P.M. rows and the Coming Soon stacks."""
    data, rng = state.data, state.rng
    size = state.players + 1
    fixed = state.fixed_deals.get(state.round, _FROM_THE_SEED)
    fixed_rows = [fixed.am, fixed.pm, fixed.coming_am, fixed.coming_pm]  # TROUPER_ROWS' order
    named = {card for row in fixed_rows if row is not None for card in row}
    pool = [card for card in data.troupers if card not in named] if named else list(data.troupers)
    # The rows left to the seed are drawn in their order, all from one pool: their cards are
    # taken together (one batch of numbers), then dealt out row by row.
    drawn = rng.draw(pool, size * fixed_rows.count(None))
    rows = []
    for row in fixed_rows:
        if row is None:
            row, drawn = drawn[:size], drawn[size:]
        rows.append(list(row))
    state.am_row, state.pm_row, state.coming_am, state.coming_pm = rows
    if fixed.headliners is not None:
        state.headliner_row = list(fixed.headliners)
    else:
        state.headliner_row = rng.draw(state.headliner_deck, size)
    state.phase = 1
    return RoundDealt(state.round, tuple(state.am_row), tuple(state.pm_row), tuple(state.coming_am))


def unseen(state: BigTimeState) -> tuple[int, tuple[str, ...], tuple[str, ...]]:
    """What no player has seen: the generator that deals every later round, the Troupers face
    down under the Coming Soon stacks, and the Headliners while face down (phase 1)."""
    face_down = tuple(state.headliner_row) if state.phase == 1 else ()
    return state.rng.state, tuple(state.coming_pm), face_down


def reshuffle(state: BigTimeState, rng: Rng) -> BigTimeState:
    """A copy of `state` whose face-down cards are dealt again by `rng` from the cards no player
    sees, and whose later rounds `rng` deals. The set-up's fixed deals are a start's, not an
    undo's: the cards come from all those unseen."""
    dealt = load_state(dump_state(state))
    seen = {*dealt.am_row, *dealt.pm_row, *dealt.coming_am}
    pool = [card for card in dealt.data.troupers if card not in seen]
    dealt.coming_pm = rng.draw(pool, len(dealt.coming_pm))
    if dealt.phase == 1:
        dealt.headliner_deck += dealt.headliner_row
        dealt.headliner_row = rng.draw(dealt.headliner_deck, len(dealt.headliner_row))
    dealt.rng = rng
    return dealt


@lru_cache(maxsize=64)
def _starting_hand(money_cards: tuple[int, ...], bonus: int | None) -> tuple[int, ...]:
    """The money every round, and in round one the bonus card the starting review brings."""
    extra = () if bonus is None else (bonus,)
    return tuple(sorted(money_cards + extra, reverse=True))


def _place_markers(data: BigTimeData, fixed: Mapping[str, Any], rng: Rng) -> dict[str, int]:
    """Fixed act types first; the others take the remaining starred spaces at random."""
    chart: dict[str, int] = {}
    by_name = {name.casefold(): name for name in data.act_types} if fixed else {}
    for name, space in fixed.items():
        act_type = by_name.get(str(name).casefold())
        if act_type is None:
            raise BigTimeSetupError(f"opinion: unknown act type {name!r}")
        if space not in data.starred_spaces or space in chart.values():
            raise BigTimeSetupError(f"opinion: {act_type} needs a free starred space, not {space}")
        chart[act_type] = space
    taken = set(chart.values())
    free = [space for space in data.starred_spaces if space not in taken]
    rng.shuffle(free)
    for act_type in data.act_types:
        if act_type not in chart:
            chart[act_type] = free.pop()
    return {act_type: chart[act_type] for act_type in data.act_types}


def _deal_reviews(data: BigTimeData, players: int, fixed: Mapping[Any, Any], rng: Rng) -> list[str]:
    """Starting reviews: fixed seats first, the remaining reviews dealt to the others."""
    names = data.reviews[players]
    given: dict[int, str] = {}
    for seat, review in fixed.items():
        number = int(seat) if str(seat).isdigit() else -1
        if not 0 <= number < players or review not in names or review in given.values():
            raise BigTimeSetupError(
                f"reviews: seat {seat} needs an unused review of {', '.join(names)}, not {review!r}"
            )
        given[number] = review
    free = [name for name in names if name not in given.values()]
    rng.shuffle(free)
    return [given[seat] if seat in given else free.pop() for seat in range(players)]


def _read_deals(data: BigTimeData, players: int, deals: Any) -> dict[int, RoundDeal]:
    if not isinstance(deals, list) or len(deals) > data.rounds:
        raise BigTimeSetupError(f"deals: a list of at most {data.rounds} rounds")
    fixed: dict[int, RoundDeal] = {}
    headliners_seen: set[str] = set()
    for number, deal in enumerate(deals, start=1):
        if not isinstance(deal, dict) or not set(deal) <= {*TROUPER_ROWS, "headliners"}:
            raise BigTimeSetupError(
                f"deals, round {number}: give {', '.join(TROUPER_ROWS)}, headliners"
            )
        rows = {key: _read_row(data, players, number, key, cards) for key, cards in deal.items()}
        troupers = [card for key, row in rows.items() if key != "headliners" for card in row]
        headliners = rows.get("headliners", [])
        if len(set(troupers)) != len(troupers) or headliners_seen & set(headliners):
            raise BigTimeSetupError(f"deals, round {number}: a card is dealt twice")
        headliners_seen.update(headliners)
        fixed[number] = RoundDeal(**rows)
    return fixed


def _read_row(data: BigTimeData, players: int, number: int, key: str, cards: Any) -> list[str]:
    kind = HEADLINER if key == "headliners" else TROUPER
    row = [str(card).upper() for card in cards] if isinstance(cards, list) else []
    if len(row) != players + 1 or any(
        card not in data.acts or data.acts[card].kind != kind for card in row
    ):
        raise BigTimeSetupError(
            f"deals, round {number}, {key}: {players + 1} {kind} card ids, not {cards!r}"
        )
    return row
