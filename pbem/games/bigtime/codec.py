"""A Big Time! state as plain JSON data and back, exactly, the RNG included.

The component data is not stored: only the file it came from (None for the packaged data).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pbem.games.bigtime.components import load_components
from pbem.games.bigtime.events import Booked
from pbem.games.bigtime.state import (
    BigTimeState,
    Booking,
    Draft,
    Order,
    RoundDeal,
    Theater,
)
from pbem.games.rng import Rng

ROWS = ("am_row", "pm_row", "coming_am", "coming_pm", "headliner_row", "headliner_deck")


def dump_state(state: BigTimeState) -> dict[str, Any]:
    """The state as JSON data: lists for tuples, dataclasses as dicts of their fields in order.

    Written out field by field rather than with `dataclasses.asdict`, which walks and deep-copies
    every value generically: a state is dumped at every order (to save it and to try the order
    on a copy), and `asdict` made most of that cost. tests/bigtime/test_codec.py checks the
    output against `asdict`'s for states all through random games.
    """
    return {
        "data_file": state.data_file,
        "rng": state.rng.state,
        "round": state.round,
        "phase": state.phase,
        "over": state.over,
        "chart": dict(state.chart),
        **{row: list(getattr(state, row)) for row in ROWS},
        "fixed_deals": {str(n): _dump_deal(deal) for n, deal in state.fixed_deals.items()},
        "revealed_bids": [list(bid) for bid in state.revealed_bids],
        "last_picks": [_dump_pick(pick) for pick in state.last_picks],
        "theaters": [_dump_theater(theater) for theater in state.theaters],
    }


def _dump_deal(deal: RoundDeal) -> dict[str, Any]:
    return {
        "am": _optional_list(deal.am),
        "pm": _optional_list(deal.pm),
        "coming_am": _optional_list(deal.coming_am),
        "coming_pm": _optional_list(deal.coming_pm),
        "headliners": _optional_list(deal.headliners),
    }


def _dump_pick(pick: Booked) -> dict[str, Any]:
    # The pick's own fields, as the state saved them before picks were kept as their events.
    return {
        "seat": pick.seat,
        "row": pick.row,
        "card": pick.card,
        "paid": list(pick.paid),
        "penalty": pick.penalty,
    }


def _dump_booking(booking: Booking) -> dict[str, Any]:
    return {"card": booking.card, "paid": list(booking.paid), "penalty": booking.penalty}


def _dump_theater(theater: Theater) -> dict[str, Any]:
    order, draft = theater.order, theater.draft
    return {
        "hand": list(theater.hand),
        "review": theater.review,
        "posterity": theater.posterity,
        "playbill": [_dump_booking(booking) for booking in theater.playbill],
        "hall_of_fame": list(theater.hall_of_fame),
        "hook_choice": theater.hook_choice,
        "order": None
        if order is None
        else {"bid": list(order.bid), "am": list(order.am), "pm": list(order.pm)},
        "draft": {
            "am": list(draft.am),
            "pm": list(draft.pm),
            "headliner": _optional_list(draft.headliner),
        },
        "headliner_prefs": _optional_list(theater.headliner_prefs),
        "last_show": [_dump_booking(booking) for booking in theater.last_show],
        "box_office": theater.box_office,
        "hooked": theater.hooked,
    }


def _optional_list(value: Sequence[Any] | None) -> list[Any] | None:
    return None if value is None else list(value)


def load_state(data: dict[str, Any]) -> BigTimeState:
    data_file = data["data_file"]
    return BigTimeState(
        data=load_components(None if data_file is None else Path(data_file)),
        data_file=data_file,
        rng=Rng(data["rng"]),
        theaters=[_theater(theater) for theater in data["theaters"]],
        chart=dict(data["chart"]),
        fixed_deals={int(n): RoundDeal(**deal) for n, deal in data["fixed_deals"].items()},
        round=data["round"],
        phase=data["phase"],
        over=data["over"],
        revealed_bids=[tuple(bid) for bid in data["revealed_bids"]],
        last_picks=[_pick(pick) for pick in data["last_picks"]],
        **{row: list(data[row]) for row in ROWS},
    )


def _optional_tuple(value: list[Any] | None) -> tuple[Any, ...] | None:
    return None if value is None else tuple(value)


def _booking(data: dict[str, Any]) -> Booking:
    return Booking(data["card"], tuple(data["paid"]), data["penalty"])


def _pick(data: dict[str, Any]) -> Booked:
    return Booked(data["row"], data["seat"], data["card"], tuple(data["paid"]), data["penalty"])


def _theater(data: dict[str, Any]) -> Theater:
    order = data["order"]
    draft = data["draft"]
    return Theater(
        hand=tuple(data["hand"]),
        review=data["review"],
        posterity=data["posterity"],
        playbill=[_booking(booking) for booking in data["playbill"]],
        hall_of_fame=list(data["hall_of_fame"]),
        hook_choice=data["hook_choice"],
        order=None
        if order is None
        else Order(tuple(order["bid"]), tuple(order["am"]), tuple(order["pm"])),
        draft=Draft(tuple(draft["am"]), tuple(draft["pm"]), _optional_tuple(draft["headliner"])),
        headliner_prefs=_optional_tuple(data["headliner_prefs"]),
        last_show=[_booking(booking) for booking in data["last_show"]],
        box_office=data["box_office"],
        hooked=data["hooked"],
    )
