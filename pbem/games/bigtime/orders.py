"""Checking and filing a player's orders for the current phase.

One email is one submission: its preference lines go into the seat's draft, and its BID (phases
1-2) or HEADLINER (phase 3) files the whole order, replacing an earlier one for the same phase.
So an email's BID or phase-3 HEADLINER is applied after its other lines (`completes_order`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from pbem.games.base import Event, Refusal
from pbem.games.bigtime.actions import Action, Bid, Hook, PreferAM, PreferHeadliner, PreferPM
from pbem.games.bigtime.events import HeadlinersFiled, HookChosen, OrderFiled
from pbem.games.bigtime.state import AM, HEADLINERS, PM, BigTimeState, Draft, Order, Theater
from pbem.games.bigtime.wording import cards_text, money_text

ROW_PREFIXES = {AM: "A", PM: "P", HEADLINERS: "H"}
ORDER_WORDS = {
    Bid: "BID",
    PreferAM: "AM",
    PreferPM: "PM",
    PreferHeadliner: "HEADLINER",
    Hook: "HOOK",
}


# `awaiting` and `all_filed` run on every email: plain loops, not generators, which cost twice
# as much to set up, nor comprehensions, each a function made and called on every run in Python
# 3.11 (issue 14).


def awaiting(state: BigTimeState) -> tuple[int, ...]:
    if state.over:
        return ()
    waiting = []
    if state.phase == 3:
        for seat, theater in enumerate(state.theaters):
            if theater.headliner_prefs is None:
                waiting.append(seat)
    else:
        for seat, theater in enumerate(state.theaters):
            if theater.order is None:
                waiting.append(seat)
    return tuple(waiting)


def all_filed(state: BigTimeState) -> bool:
    """Every seat's order for the current phase is on file (the phase can resolve)."""
    phase_three = state.phase == 3
    for theater in state.theaters:
        if (theater.headliner_prefs if phase_three else theater.order) is None:
            return False
    return True


# The line that files a seat's whole order, by phase.
ORDER_LINE: dict[int, type] = {1: Bid, 2: Bid, 3: PreferHeadliner}


def withdraw_order(state: BigTimeState, seat: int) -> None:
    """The seat's sealed order, preferences and Hook choice taken back unplayed: the seat is
    awaited again."""
    theater = state.theaters[seat]
    theater.order = theater.headliner_prefs = theater.hook_choice = None
    theater.draft = Draft()


def completes_order(state: BigTimeState, action: Action) -> bool:
    return type(action) is ORDER_LINE[state.phase]


def coded_row(state: BigTimeState, row_name: str) -> list[tuple[str, str]]:
    """(short code, card id) of a row on offer in this phase; A1.., P1.., H1..."""
    rows = {AM: state.am_row, PM: state.pm_row, HEADLINERS: state.headliner_row}
    if state.over or row_name not in rows_open(state):
        return []
    prefix = ROW_PREFIXES[row_name]
    return [(f"{prefix}{index}", card) for index, card in enumerate(rows[row_name], start=1)]


def rows_open(state: BigTimeState) -> tuple[str, ...]:
    """The rows preferences may name now: Headliners from phase 2, when they are turned up."""
    return ((AM, PM), (AM, PM, HEADLINERS), (HEADLINERS,))[state.phase - 1]


def email_problem(
    state: BigTimeState, seat: int, actions: Sequence[Action]
) -> tuple[int | None, Refusal] | None:
    """What makes an email's lines unacceptable together: (the line's index or None, why)."""
    if state.over:
        return None, Refusal("The game is over.")
    seen: set[type] = set()
    for index, action in enumerate(actions):
        if type(action) in seen:
            word = ORDER_WORDS[type(action)]
            return index, Refusal(
                f"Only one {word} line per email: send it again with the {word} line you mean."
            )
        seen.add(type(action))
    # A BID in phase 3 is the mistake to tell, not the HEADLINER line it may lack (play-testing:
    # "needs a HEADLINER line", pinned on the BID line, did not say what was wrong with it).
    if state.phase == 3 and Bid in seen:
        bid = next(index for index, action in enumerate(actions) if isinstance(action, Bid))
        return bid, _bid_in_phase_three(state)
    needed = PreferHeadliner if state.phase == 3 else Bid
    if needed not in seen:
        missing = f"Round {state.round}, phase {state.phase} needs a {ORDER_WORDS[needed]} line"
        if needed is Bid:
            hand = state.theaters[seat].hand
            return None, Refusal(f"{missing}; you hold {money_text(hand)}.", bid_choices(hand))
        return None, Refusal(f"{missing}.", _headliner_choices(state))
    return None


def bid_choices(hand: Sequence[int]) -> tuple[str, ...]:
    """Every legal bid, told as a rule with an example from `hand` rather than one bid alone."""
    if not hand:
        return ("BID 0",)
    return (f"BID any of your money cards, e.g. {example_bid(hand)}, or BID 0",)


def example_bid(hand: Sequence[int]) -> str:
    """A modest bid from `hand` to show as an example: one card of each value, highest first
    (`BID 3 2 1`), not the whole hand, which a new player copying it would spend in phase 1."""
    return f"BID {cards_text(tuple(sorted(set(hand), reverse=True)))}"


def _bid_in_phase_three(state: BigTimeState) -> Refusal:
    return Refusal(
        "In phase 3 your bid is all the money you have left: leave out the BID and send HEADLINER.",
        _headliner_choices(state),
    )


def _headliner_choices(state: BigTimeState) -> tuple[str, ...]:
    codes = [code for code, _ in coded_row(state, HEADLINERS)]
    if not codes:
        return ("HEADLINER",)
    ranked = " ".join(reversed(codes[:2]))
    return (
        f"HEADLINER with any of {' '.join(codes)}, best first, e.g. HEADLINER {ranked}",
        "HEADLINER alone for the default pick",
    )


def check(state: BigTimeState, seat: int, action: Action) -> Refusal | None:
    if state.over:
        return Refusal("The game is over.")
    phase = state.phase
    if isinstance(action, Bid):
        if phase == 3:
            return _bid_in_phase_three(state)
        hand = state.theaters[seat].hand
        if Counter(action.cards) - Counter(hand):
            return Refusal(
                f"You hold {cards_text(hand)}; you cannot bid {cards_text(action.cards)}.",
                bid_choices(hand),
            )
        return None
    if isinstance(action, PreferAM | PreferPM | PreferHeadliner):
        return _check_preferences(state, action)
    playbill = tuple(booking.card for booking in state.theaters[seat].playbill)
    if action.card not in state.data.acts:
        return Refusal(f"There is no act {action.card}.", playbill)
    # Only what every player can see: an act booked by another, on their playbill or in their
    # Hall of Fame, can never be this player's (one still in the deck might be dealt to them,
    # and refusing it would tell that it is not).
    if action.card in playbill:
        return None
    if action.card in state.theaters[seat].hall_of_fame:
        return Refusal(
            f"{action.card} is in your Hall of Fame; the Hook can only fall on an act on your "
            "playbill.",
            playbill,
        )
    if action.card in _others_acts(state, seat):
        return Refusal(
            f"{action.card} is another player's act; the Hook can only fall on one of yours.",
            playbill,
        )
    return None


def _others_acts(state: BigTimeState, seat: int) -> set[str]:
    """The acts the other players hold in sight of all: on their playbills and in their Halls
    of Fame."""
    others = [theater for index, theater in enumerate(state.theaters) if index != seat]
    return {booking.card for theater in others for booking in theater.playbill} | {
        card for theater in others for card in theater.hall_of_fame
    }


def _file_am(state: BigTimeState, theater: Theater, seat: int, action: PreferAM) -> list[Event]:
    theater.draft.am = action.acts
    return []


def _file_pm(state: BigTimeState, theater: Theater, seat: int, action: PreferPM) -> list[Event]:
    theater.draft.pm = action.acts
    return []


def _file_hook(state: BigTimeState, theater: Theater, seat: int, action: Hook) -> list[Event]:
    theater.hook_choice = action.card
    return [HookChosen(seat, action.card, to=(seat,))]


def _file_headliner(
    state: BigTimeState, theater: Theater, seat: int, action: PreferHeadliner
) -> list[Event]:
    if state.phase == 2:  # goes with the phase-2 BID
        theater.draft.headliner = action.acts
        return []
    theater.headliner_prefs = action.acts
    return [HeadlinersFiled(seat, action.acts, to=(seat,))]


def _file_bid(state: BigTimeState, theater: Theater, seat: int, action: Bid) -> list[Event]:
    draft = theater.draft
    am, pm = draft.am, draft.pm
    theater.order = Order(action.cards, am, pm)
    if state.phase == 2:
        theater.headliner_prefs = draft.headliner
    draft.am = draft.pm = ()  # emptied for the next order in place: no new Draft each time
    draft.headliner = None
    return [
        OrderFiled(
            seat,
            state.round,
            state.phase,
            action.cards,
            am,
            pm,
            theater.headliner_prefs,
            to=(seat,),
        )
    ]


# Each filer records a checked action of its own type; the events it returns are private
# acknowledgements. Filing is one look-up by the action's type, not a chain of isinstance tests:
# a random game files over a hundred actions (issue 14).
FILERS: dict[type, Callable[[BigTimeState, Theater, int, Any], list[Event]]] = {
    PreferAM: _file_am,
    PreferPM: _file_pm,
    Hook: _file_hook,
    PreferHeadliner: _file_headliner,
    Bid: _file_bid,
}


def _check_preferences(
    state: BigTimeState, action: PreferAM | PreferPM | PreferHeadliner
) -> Refusal | None:
    row_name = {PreferAM: AM, PreferPM: PM, PreferHeadliner: HEADLINERS}[type(action)]
    if row_name not in rows_open(state):
        word = ORDER_WORDS[type(action)]
        when = "in phases 2 and 3" if row_name == HEADLINERS else "in phases 1 and 2"
        return Refusal(f"{word} preferences are taken {when}; this is phase {state.phase}.")
    coded = coded_row(state, row_name)
    cards = {card for _, card in coded}
    legal = tuple(f"{code} ({card})" for code, card in coded)
    for index, act in enumerate(action.acts):
        if act not in cards:
            return Refusal(f"{act} is not in the {row_name} row.", legal)
        # A repeat ranks nothing, and may be a slip for another act: asked, not guessed.
        if act in action.acts[:index]:
            word = ORDER_WORDS[type(action)]
            return Refusal(f"{act} is named twice: a {word} line names each act once.", legal)
    return None
