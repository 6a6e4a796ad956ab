"""Phases 4-7, which need no orders: Box Office, reviews and the Hook, Public Opinion, Posterity
and Clean-up; and the final standings."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache

from pbem.games.base import Event
from pbem.games.bigtime.components import Act, BigTimeData
from pbem.games.bigtime.events import (
    BoxOffice,
    CleanedUp,
    Hooked,
    OpinionMoved,
    PosterityScored,
    Reviewed,
)
from pbem.games.bigtime.state import BigTimeState, Booking, Theater


def run_show(state: BigTimeState) -> list[Event]:
    """Phases 4 to 7 of the round, right after the Headliners are booked."""
    events = take_box_office(state)
    reviewed = award_reviews(state)
    events.append(reviewed)
    smash, flop = reviewed.ranked[0][0], reviewed.ranked[-1][0]
    events.append(place_hook(state, flop))
    events += move_opinion(state, smash, up=True)
    events += move_opinion(state, flop, up=False)
    events += score_posterity(state)
    events.append(clean_up(state))
    return events


def playbill_value(data: BigTimeData, playbill: list[Booking]) -> tuple[int, int, int]:
    """(sum of values, sum of penalties, variety bonus): Box Office is the first less the
    second plus the third. The bonus needs every act of a different type."""
    acts = data.acts
    values = penalties = 0
    types = set()
    for booking in playbill:
        act = acts[booking.card]
        values += act.value
        penalties += booking.penalty
        types.add(act.act_type)
    bonus = data.variety_bonus if len(types) == len(playbill) else 0
    return values, penalties, bonus


def move_marker(data: BigTimeData, space: int, up: bool) -> int:
    """One move of a marker by the tier it starts in, stopping at the chart's ends."""
    return _moves(data, up)[space]


@lru_cache(maxsize=16)
def _moves(data: BigTimeData, up: bool) -> dict[int, int]:
    """Where one move takes a marker, from each space."""
    if up:
        return {space: min(data.top, space + tier.up) for space, tier in data.tier_of.items()}
    return {space: max(data.bottom, space - tier.down) for space, tier in data.tier_of.items()}


def icons_score(state: BigTimeState, cards: Iterable[str]) -> int:
    """Posterity of these acts' icons on the chart as it stands."""
    return _score(state.data.acts, _type_worth(state), cards)


def _score(acts: Mapping[str, Act], worth: Mapping[str, int], cards: Iterable[str]) -> int:
    total = 0
    for card in cards:
        act = acts[card]
        total += act.icons * worth[act.act_type]
    return total


def _type_worth(state: BigTimeState) -> dict[str, int]:
    """What an icon of each act type scores now: the posterity of its marker's tier."""
    tier_of = state.data.tier_of
    worth = {}
    for act_type, space in state.chart.items():  # a loop: a comprehension is a call in 3.11
        worth[act_type] = tier_of[space].posterity
    return worth


def standings_order(state: BigTimeState) -> list[int]:
    """Seats best first: most posterity; then the Hall of Fame scored again on the final chart;
    then the lower final-round review. Reviews differ, so no tie is left."""
    stars = state.data.review_stars
    return sorted(
        range(state.players),
        key=lambda seat: (
            -state.theaters[seat].posterity,
            -icons_score(state, state.theaters[seat].hall_of_fame),
            stars[state.theaters[seat].review],
        ),
    )


def take_box_office(state: BigTimeState) -> list[Event]:
    events: list[Event] = []
    for seat, theater in enumerate(state.theaters):
        values, penalties, bonus = playbill_value(state.data, theater.playbill)
        theater.box_office = total = values - penalties + bonus
        events.append(BoxOffice(seat, values, penalties, bonus, total))
    return events


def award_reviews(state: BigTimeState) -> Reviewed:
    """Best Box Office gets the best review; a tie goes to the worse review held until now.
    The event ranks the seats: the Smash first, the Flop last."""
    stars = state.data.review_stars
    theaters = state.theaters
    order = []
    for seat, theater in enumerate(theaters):
        order.append((-(theater.box_office or 0), stars[theater.review], seat))
    order.sort()  # reviews differ, so the seat itself never decides the order
    ranked = []
    # One review per seat, indexed rather than zipped, as booking._reveal says why.
    reviews = state.data.reviews[len(theaters)]
    for place, (less_takings, _, seat) in enumerate(order):
        review = reviews[place]
        theaters[seat].review = review
        ranked.append((seat, review, -less_takings))
    return Reviewed(tuple(ranked))


def place_hook(state: BigTimeState, flop: int) -> Event:
    """The Flop's lowest act after penalty; among equals the player's HOOK choice, else the
    Trouper booked last, else the Headliner."""
    acts = state.data.acts
    for other in state.theaters:
        other.hooked = None
    theater = state.theaters[flop]
    # The least worth after penalty, and the acts worth it in booking order.
    lowest = 0
    equal: list[str] = []
    for booking in theater.playbill:
        worth = acts[booking.card].value - booking.penalty
        if not equal or worth < lowest:
            lowest, equal = worth, [booking.card]
        elif worth == lowest:
            equal.append(booking.card)
    troupers = [card for card in equal if not acts[card].is_headliner]
    if theater.hook_choice in equal:
        hooked = theater.hook_choice
    else:
        hooked = troupers[-1] if troupers else equal[0]
    theater.hooked = hooked
    return Hooked(flop, hooked, lowest)


def move_opinion(state: BigTimeState, seat: int, up: bool) -> list[Event]:
    """Each icon on the playbill (the hooked act aside) moves its type's marker once."""
    acts, chart, walks = state.data.acts, state.chart, _walks(state.data, up)
    theater = state.theaters[seat]
    hooked = theater.hooked
    paths: dict[str, list[int]] = {}
    for booking in theater.playbill:
        if booking.card == hooked:
            continue
        act = acts[booking.card]
        act_type = act.act_type
        path = paths.get(act_type)
        if path is None:
            path = paths[act_type] = [chart[act_type]]
        path += walks[path[-1]][act.icons]
        chart[act_type] = path[-1]
    review, tier_of = theater.review, state.data.tier_of
    events: list[Event] = []
    for act_type, path in paths.items():
        events.append(OpinionMoved(seat, review, act_type, up, tuple(path), tier_of[path[-1]].name))
    return events


@lru_cache(maxsize=16)
def _walks(data: BigTimeData, up: bool) -> dict[int, tuple[tuple[int, ...], ...]]:
    """From each space, the spaces a marker passes through in n moves, for n from 0 to the most
    icons an act has: one look-up per act instead of one per icon."""
    moves = _moves(data, up)
    most = max(act.icons for act in data.acts.values())
    walks = {}
    for start in moves:
        spaces = [start]
        for _ in range(most):
            spaces.append(moves[spaces[-1]])
        walks[start] = tuple(tuple(spaces[1 : n + 1]) for n in range(most + 1))
    return walks


def score_posterity(state: BigTimeState) -> list[Event]:
    acts, worth = state.data.acts, _type_worth(state)
    events: list[Event] = []
    for seat, theater in enumerate(state.theaters):
        hooked, on_bill = theater.hooked, 0
        for booking in theater.playbill:  # as `_score` does, without listing the cards first
            if booking.card != hooked:
                act = acts[booking.card]
                on_bill += act.icons * worth[act.act_type]
        in_hall = _score(acts, worth, theater.hall_of_fame)
        theater.posterity += on_bill + in_hall
        events.append(PosterityScored(seat, on_bill, in_hall, theater.posterity))
    return events


def clean_up(state: BigTimeState) -> Event:
    """Troupers back to the deck, Headliners (not a hooked one) to the Hall of Fame, penalties
    off, money reset: the round-one bonus card is gone for good."""
    acts = state.data.acts
    retired: list[tuple[int, str, bool]] = []
    for seat, theater in enumerate(state.theaters):
        retired += _retire_headliner(theater, seat, acts)
        theater.last_show, theater.playbill = theater.playbill, []
        theater.hand = state.data.money_cards
        theater.hook_choice = None
    return CleanedUp(tuple(retired))


def _retire_headliner(
    theater: Theater, seat: int, acts: Mapping[str, Act]
) -> list[tuple[int, str, bool]]:
    """(seat, card, hooked) of each Headliner on the playbill: a hooked one leaves the game."""
    retired = []
    for booking in theater.playbill:
        if not acts[booking.card].is_headliner:
            continue
        hooked = booking.card == theater.hooked
        if not hooked:
            theater.hall_of_fame.append(booking.card)
        retired.append((seat, booking.card, hooked))
    return retired
