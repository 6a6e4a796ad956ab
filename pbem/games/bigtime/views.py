"""What a seat may see of the game: the one place hidden information is filtered.

Public (RULINGS.md): the board, each player's money left, bids once revealed, every pick and
payment. Private to a seat: its hand and its orders not yet revealed. Face-down cards: nobody but
the game master (seat None), who sees everything. `public_view` is what everyone may see (a
watcher of the game): the public part alone, nobody's hand or orders.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pbem.games.bigtime.components import Act
from pbem.games.bigtime.orders import coded_row
from pbem.games.bigtime.state import AM, HEADLINERS, PM, BigTimeState, Booking, Theater


@dataclass(frozen=True)
class OfferedAct:
    code: str  # A1.., P1.., H1..: what an order may write instead of the card id
    act: Act


@dataclass(frozen=True)
class ComingSoonStack:
    face_up: Act
    face_down: int  # cards under it: a Trouper and a Headliner
    hidden: tuple[Act, ...]  # those cards, for the game master only


@dataclass(frozen=True)
class BookedAct:
    act: Act
    paid: tuple[int, ...]
    penalty: int
    hooked: bool


@dataclass(frozen=True)
class TheaterView:
    seat: int
    review: str
    posterity: int
    money_left: int
    cards_left: int
    order_on_file: bool
    playbill: tuple[BookedAct, ...]
    hall_of_fame: tuple[Act, ...]
    last_show: tuple[BookedAct, ...]  # the previous round's playbill, its Hook marked
    box_office: int | None
    revealed_bid: tuple[int, ...] | None  # the bid of the last resolved phase


@dataclass(frozen=True)
class ChartMarker:
    act_type: str
    space: int
    tier: str
    posterity: int


@dataclass(frozen=True)
class PickView:
    seat: int
    row: str
    act: Act
    paid: tuple[int, ...]
    penalty: int


@dataclass(frozen=True)
class PrivateView:
    seat: int
    hand: tuple[int, ...]
    bid: tuple[int, ...] | None  # the bid on file, until revealed
    am: tuple[str, ...]
    pm: tuple[str, ...]
    headliner: tuple[str, ...] | None
    hook: str | None


@dataclass(frozen=True)
class BigTimeView:
    round: int
    rounds: int
    phase: int
    phase_key: str
    over: bool
    am_row: tuple[OfferedAct, ...]
    pm_row: tuple[OfferedAct, ...]
    headliner_row: tuple[OfferedAct, ...]  # face up from phase 2
    coming_soon: tuple[ComingSoonStack, ...]  # phase 1 only
    theaters: tuple[TheaterView, ...]
    chart: tuple[ChartMarker, ...]
    last_picks: tuple[PickView, ...]
    # The seat's own; every seat's for the game master; nobody's in the public view.
    private: tuple[PrivateView, ...]


def build_view(state: BigTimeState, seat: int | None) -> BigTimeView:
    private_seats = range(state.players) if seat is None else (seat,)
    return _view(state, private_seats, game_master=seat is None)


def public_view(state: BigTimeState) -> BigTimeView:
    return _view(state, (), game_master=False)


def _view(state: BigTimeState, private_seats: Sequence[int], game_master: bool) -> BigTimeView:
    """The public board, with the hands and orders of `private_seats`, and the face-down cards
    for the game master."""
    acts = state.data.acts

    def offered(row_name: str) -> tuple[OfferedAct, ...]:
        return tuple(OfferedAct(code, acts[card]) for code, card in coded_row(state, row_name))

    return BigTimeView(
        round=state.round,
        rounds=state.data.rounds,
        phase=state.phase,
        phase_key=state.phase_key,
        over=state.over,
        am_row=offered(AM),
        pm_row=offered(PM),
        headliner_row=offered(HEADLINERS),
        coming_soon=_coming_soon(state, game_master),
        theaters=tuple(_theater(state, s, t) for s, t in enumerate(state.theaters)),
        chart=tuple(
            ChartMarker(
                act_type, space, state.data.tier_of[space].name, state.data.tier_of[space].posterity
            )
            for act_type, space in state.chart.items()
        ),
        last_picks=tuple(
            PickView(pick.seat, pick.row, acts[pick.card], pick.paid, pick.penalty)
            for pick in state.last_picks
        ),
        private=tuple(_private(state, s) for s in private_seats),
    )


def _coming_soon(state: BigTimeState, game_master: bool) -> tuple[ComingSoonStack, ...]:
    if state.over or state.phase != 1:
        return ()
    acts = state.data.acts
    return tuple(
        ComingSoonStack(
            face_up=acts[up],
            face_down=2,
            hidden=(acts[down], acts[headliner]) if game_master else (),
        )
        for up, down, headliner in zip(
            state.coming_am, state.coming_pm, state.headliner_row, strict=True
        )
    )


def _booked(
    state: BigTimeState, bookings: list[Booking], hooked: str | None
) -> tuple[BookedAct, ...]:
    acts = state.data.acts
    return tuple(BookedAct(acts[b.card], b.paid, b.penalty, b.card == hooked) for b in bookings)


def _theater(state: BigTimeState, seat: int, theater: Theater) -> TheaterView:
    on_file = theater.headliner_prefs if state.phase == 3 else theater.order
    return TheaterView(
        seat=seat,
        review=theater.review,
        posterity=theater.posterity,
        money_left=sum(theater.hand),
        cards_left=len(theater.hand),
        order_on_file=on_file is not None and not state.over,
        playbill=_booked(state, theater.playbill, None),
        hall_of_fame=tuple(state.data.acts[card] for card in theater.hall_of_fame),
        last_show=_booked(state, theater.last_show, theater.hooked),
        box_office=theater.box_office,
        revealed_bid=state.revealed_bids[seat] if state.revealed_bids else None,
    )


def _private(state: BigTimeState, seat: int) -> PrivateView:
    theater = state.theaters[seat]
    order = theater.order
    # A Hook choice on an act another player booked can never fall: not shown as standing
    # (play-testing: "Choice for the Hook ...: T16" stayed all round after Bo booked T16).
    holder = {b.card: other for other, t in enumerate(state.theaters) for b in t.playbill}
    hook = theater.hook_choice if holder.get(theater.hook_choice or "", seat) == seat else None
    return PrivateView(
        seat=seat,
        hand=theater.hand,
        bid=None if order is None else order.bid,
        am=() if order is None else order.am,
        pm=() if order is None else order.pm,
        headliner=theater.headliner_prefs,
        hook=hook,
    )
