"""Phases 1-3, the Talent Buys: reveal the bids, then each row's picks in bid order.

A Talent Buy resolves thousands of times a second in simulations (issue 14): each resolution
is one pass that appends to one list of events, with plain loops (a comprehension is a function
made and called on every run in Python 3.11), and each pick makes two objects, the `Booking` on
the playbill and the `Booked` event, which the state also keeps as the pick's record.
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.games.base import Event
from pbem.games.bigtime.events import BidsRevealed, Booked, PhaseTwo, Unbooked, Unspent
from pbem.games.bigtime.payment import pick_act, without
from pbem.games.bigtime.state import AM, HEADLINERS, PM, BigTimeState, Booking


def resolve_trouper_buy(state: BigTimeState) -> list[Event]:
    """Phase 1 or 2 once every order is on file; ends with the next phase set up."""
    bids: list[tuple[int, ...]] = []
    am_prefs: list[tuple[str, ...]] = []
    pm_prefs: list[tuple[str, ...]] = []
    for theater in state.theaters:
        order = theater.order
        if order is None:
            raise AssertionError("a Talent Buy resolved before every order was on file")
        bids.append(order.bid)
        am_prefs.append(order.am)
        pm_prefs.append(order.pm)
        theater.order = None
    events = _reveal(state, bids)
    left = list(bids)
    _book_row(state, AM, state.am_row, left, am_prefs, events)
    _book_row(state, PM, state.pm_row, left, pm_prefs, events)
    _unspent(left, events)
    if state.phase == 1:
        events.append(_set_up_phase_two(state))
    state.phase += 1
    return events


def resolve_headliner_buy(state: BigTimeState) -> list[Event]:
    """Phase 3 once every player's Headliner preferences are on file: each bids all money left."""
    bids: list[tuple[int, ...]] = []
    prefs: list[tuple[str, ...]] = []
    for theater in state.theaters:
        bids.append(theater.hand)
        prefs.append(theater.headliner_prefs or ())
        theater.headliner_prefs = None
    events = _reveal(state, bids)
    left = list(bids)
    _book_row(state, HEADLINERS, state.headliner_row, left, prefs, events)
    _unspent(left, events)
    return events


def _reveal(state: BigTimeState, bids: list[tuple[int, ...]]) -> list[Event]:
    # By seat, not `zip(..., strict=True)`, whose keyword alone costs as much as this loop.
    for seat, theater in enumerate(state.theaters):
        bid = bids[seat]
        # A Headliner Buy bids the whole hand and a BID 0 none of it: neither needs the cached
        # `without`, whose look-up (hashing the hand and the bid) is most of a reveal (issue 14).
        if bid is theater.hand:
            theater.hand = ()
        elif bid:
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
    events: list[Event],
) -> None:
    """Each player picks once, most money left in the bid first; ties: the worst review first.
    `left` is what remains of each bid and is updated; acts nobody picks are discarded. The
    picks' events go on `events` and on the state's `last_picks`."""
    acts, stars = state.data.acts, state.data.review_stars
    theaters = state.theaters
    turns = []
    for seat, theater in enumerate(theaters):
        turns.append((-sum(left[seat]), stars[theater.review], seat))
    turns.sort()  # reviews differ, so the seat itself never decides the order
    last_picks = state.last_picks
    for less_money, _, seat in turns:
        card, paid, left[seat], penalty = pick_act(row, acts, left[seat], prefs[seat], -less_money)
        row.remove(card)
        theaters[seat].playbill.append(Booking(card, paid, penalty))
        booked = Booked(row_name, seat, card, paid, penalty)
        last_picks.append(booked)
        events.append(booked)
    if row:
        events.append(Unbooked(row_name, tuple(row)))
        row.clear()


def _unspent(left: list[tuple[int, ...]], events: list[Event]) -> None:
    if any(left):
        events.append(Unspent(tuple(left)))


def _set_up_phase_two(state: BigTimeState) -> Event:
    """The Coming Soon Troupers become the rows (face-up ones A.M.) and the Headliners turn up."""
    state.am_row, state.coming_am = state.coming_am, []
    state.pm_row, state.coming_pm = state.coming_pm, []
    return PhaseTwo(
        state.round, tuple(state.am_row), tuple(state.pm_row), tuple(state.headliner_row)
    )
