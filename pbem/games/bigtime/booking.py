"""Phases 1-3, the Talent Buys: reveal the bids, then each row's picks in bid order."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.games.base import Event
from pbem.games.bigtime.events import BidsRevealed, Booked, PhaseTwo, Unbooked, Unspent
from pbem.games.bigtime.payment import choose_act, without
from pbem.games.bigtime.state import AM, HEADLINERS, PM, BigTimeState, Booking, Order, Pick


def resolve_trouper_buy(state: BigTimeState) -> list[Event]:
    """Phase 1 or 2 once every order is on file; ends with the next phase set up."""
    orders = [_filed(theater.order) for theater in state.theaters]
    bids = [order.bid for order in orders]
    events = _reveal(state, bids)
    left = list(bids)
    events += _book_row(state, AM, state.am_row, left, [order.am for order in orders])
    events += _book_row(state, PM, state.pm_row, left, [order.pm for order in orders])
    events += _unspent(left)
    for theater in state.theaters:
        theater.order = None
    if state.phase == 1:
        events.append(_set_up_phase_two(state))
    state.phase += 1
    return events


def resolve_headliner_buy(state: BigTimeState) -> list[Event]:
    """Phase 3 once every player's Headliner preferences are on file: each bids all money left."""
    bids = [theater.hand for theater in state.theaters]
    events = _reveal(state, bids)
    left = list(bids)
    prefs = [theater.headliner_prefs or () for theater in state.theaters]
    events += _book_row(state, HEADLINERS, state.headliner_row, left, prefs)
    events += _unspent(left)
    for theater in state.theaters:
        theater.headliner_prefs = None
    return events


def _filed(order: Order | None) -> Order:
    if order is None:
        raise AssertionError("a Talent Buy resolved before every order was on file")
    return order


def _reveal(state: BigTimeState, bids: list[tuple[int, ...]]) -> list[Event]:
    for theater, bid in zip(state.theaters, bids, strict=True):
        theater.hand = without(theater.hand, bid)
    state.revealed_bids = bids
    state.last_picks = []
    return [BidsRevealed(state.round, state.phase, tuple(bids))]


def _book_row(
    state: BigTimeState,
    row_name: str,
    row: list[str],
    left: list[tuple[int, ...]],
    prefs: Sequence[Sequence[str]],
) -> list[Event]:
    """Each player picks once, most money left in the bid first; ties: the worst review first.
    `left` is what remains of each bid and is updated; acts nobody picks are discarded."""
    acts, stars = state.data.acts, state.data.review_stars
    theaters = state.theaters
    keys = [(-sum(bid), stars[theater.review]) for bid, theater in zip(left, theaters, strict=True)]
    events: list[Event] = []
    last_picks = state.last_picks
    for seat in sorted(range(len(theaters)), key=keys.__getitem__):
        bid = left[seat]
        card, paid, penalty = choose_act(row, acts, bid, prefs[seat])
        row.remove(card)
        left[seat] = without(bid, paid)
        theaters[seat].playbill.append(Booking(card, paid, penalty))
        last_picks.append(Pick(seat, row_name, card, paid, penalty))
        events.append(Booked(row_name, seat, card, paid, penalty))
    if row:
        events.append(Unbooked(row_name, tuple(row)))
        row.clear()
    return events


def _unspent(left: list[tuple[int, ...]]) -> list[Event]:
    return [Unspent(tuple(left))] if any(left) else []


def _set_up_phase_two(state: BigTimeState) -> Event:
    """The Coming Soon Troupers become the rows (face-up ones A.M.) and the Headliners turn up."""
    state.am_row, state.coming_am = state.coming_am, []
    state.pm_row, state.coming_pm = state.coming_pm, []
    return PhaseTwo(
        state.round, tuple(state.am_row), tuple(state.pm_row), tuple(state.headliner_row)
    )
