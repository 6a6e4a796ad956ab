"""The orders a seat could send now: short codes, examples for status emails, the defaults at a
deadline, and random legal emails for simulation."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from itertools import permutations
from operator import itemgetter

from pbem.games.bigtime.actions import Action, Bid, Hook, PreferAM, PreferHeadliner, PreferPM
from pbem.games.bigtime.orders import coded_row, example_bid, rows_open
from pbem.games.bigtime.payment import sub_multisets
from pbem.games.bigtime.state import AM, HEADLINERS, PM, BigTimeState
from pbem.games.rng import Rng

ROW_WORDS = {AM: "AM", PM: "PM", HEADLINERS: "HEADLINER"}


def codes(state: BigTimeState) -> dict[str, str]:
    """The current phase's short codes (A1.., P1.., H1..) and the card ids they stand for."""
    return {code: card for row in rows_open(state) for code, card in coded_row(state, row)}


def legal_summary(state: BigTimeState, seat: int) -> list[str]:
    """Example order lines for a status email."""
    if state.over:
        return []
    theater = state.theaters[seat]
    lines: list[str] = []
    if state.phase < 3:
        lines += dict.fromkeys([example_bid(theater.hand), "BID 0"])  # no hand: BID 0 once
    for row in rows_open(state):
        lines.append(" ".join([ROW_WORDS[row], *(code for code, _ in coded_row(state, row))]))
    if state.phase == 3:
        lines.append("HEADLINER")
    if theater.playbill:
        lines.append(f"HOOK {theater.playbill[0].card}")
    return lines


def default_actions(state: BigTimeState, seat: int) -> list[Action]:
    """A missing order at a deadline: BID 0 with the default picks, or the default Headliner."""
    if state.over:
        return []
    return [PreferHeadliner(())] if state.phase == 3 else [Bid(())]


def random_actions(state: BigTimeState, seat: int, rng: Rng) -> list[Action]:
    """A random legal email, each choice uniform among the distinct lines a player could write;
    the line that files the order comes last (see orders.py). One 64-bit draw is enough."""
    if state.over:
        return []
    theater = state.theaters[seat]
    draw = rng.next64()
    actions: list[Action] = []
    # Halves and quarters by bits: `divmod(draw, 4)` and `divmod(draw, 2)` without the calls.
    hook, draw = draw & 3, draw >> 2
    if hook == 0 and theater.playbill:
        draw, index = divmod(draw, len(theater.playbill))
        actions.append(_hook(theater.playbill[index].card))
    if state.phase == 3:
        actions.append(PreferHeadliner(_pick_ranking(state.headliner_row, draw)[1]))
        return actions
    draw, am = _pick_ranking(state.am_row, draw)
    draw, pm = _pick_ranking(state.pm_row, draw)
    actions.append(PreferAM(am))
    actions.append(PreferPM(pm))
    with_headliners, draw = draw & 1, draw >> 1
    if state.phase == 2 and with_headliners:
        draw, headliners = _pick_ranking(state.headliner_row, draw)
        actions.append(PreferHeadliner(headliners))
    bids = _bids(theater.hand)
    actions.append(bids[draw % len(bids)])
    return actions


# Orders are immutable and a random player's bids and hooks repeat (a hand has few distinct
# bids, a game few acts): they are made once rather than on every email (issue 14).
_hook = cache(Hook)


@cache  # a hand is some of the money cards: few distinct hands
def _bids(hand: tuple[int, ...]) -> tuple[Bid, ...]:
    """Every distinct bid from `hand`, in `sub_multisets` order."""
    return tuple(map(Bid, sub_multisets(hand)))


def _pick_ranking(row: list[str], draw: int) -> tuple[int, tuple[str, ...]]:
    """(what is left of `draw`, a ranking of some of the row's acts chosen by it)."""
    rankings = _rankings(len(row))
    draw, index = divmod(draw, len(rankings))
    return draw, rankings[index](row)


RowPicker = Callable[[Sequence[str]], tuple[str, ...]]


@cache  # an unbounded cache's hit skips the LRU's bookkeeping; there are a few row sizes
def _rankings(size: int) -> tuple[RowPicker, ...]:
    """Every ranking of some of `size` acts, as the function that picks them from a row in that
    order, by position: (), (0,), (1,), ..., (0, 1), ..."""
    positions = range(size)
    return tuple(
        _picker(ranking) for count in range(size + 1) for ranking in permutations(positions, count)
    )


def _picker(ranking: tuple[int, ...]) -> RowPicker:
    # `itemgetter` picks several times faster than a tuple built item by item, but it needs two
    # positions or more to give a tuple.
    if len(ranking) > 1:
        return itemgetter(*ranking)
    return lambda row: tuple(row[position] for position in ranking)
