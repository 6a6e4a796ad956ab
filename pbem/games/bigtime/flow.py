"""Running the game on from a filed order for as long as no further orders are needed."""

from __future__ import annotations

from pbem.games.base import Event
from pbem.games.bigtime.actions import Action
from pbem.games.bigtime.booking import resolve_headliner_buy, resolve_trouper_buy
from pbem.games.bigtime.dealing import deal_round
from pbem.games.bigtime.events import GameOver
from pbem.games.bigtime.orders import FILERS, ORDER_LINE, all_filed
from pbem.games.bigtime.show import run_show, standings_order
from pbem.games.bigtime.state import BigTimeState


def apply(state: BigTimeState, seat: int, action: Action) -> list[Event]:
    """File a checked action; a BID (phases 1-2) or phase-3 HEADLINER files the seat's order,
    so it goes after the email's other lines. Once every order is in, the game runs on."""
    # The filer looked up here, not through a function that only looks it up: a random game
    # applies over a hundred actions (issue 14).
    events = FILERS[type(action)](state, state.theaters[seat], seat, action)
    if type(action) is ORDER_LINE[state.phase]:  # `completes_order`, without its call
        events += advance(state)
    return events


def advance(state: BigTimeState) -> list[Event]:
    """Resolve every phase whose orders are all on file: a phase 2 that ends with every
    Headliner preference already on file runs straight through phase 3 and the show."""
    events: list[Event] = []
    while not state.over and all_filed(state):
        if state.phase < 3:
            events += resolve_trouper_buy(state)
        else:
            events += resolve_headliner_buy(state)
            events += run_show(state)
            events.append(_next_round(state))
    return events


def _next_round(state: BigTimeState) -> Event:
    if state.round < state.data.rounds:
        state.round += 1
        return deal_round(state)
    state.over = True
    order = standings_order(state)
    return GameOver(tuple((seat, state.theaters[seat].posterity) for seat in order))
