"""The Big Time! computer players that decide from a seat's view alone.

`determinize` turns a view (what the seat's status email shows) into a full state by drawing what
it cannot see: the other players' money cards (their count and total are public, so only hands
with that count and total from the round's money cards are drawn), the face-down Coming Soon
cards, the Headliner deck, and nobody's sealed order. Every level decides on such a sample:
`sensible` and `random` play the engine's players on it (they read only what the seat may see, so
any sample gives the same answer), `strong` searches over samples (`pbem.games.search`).

The strong player tries the sensible email and the same preferences with other bids (or, in
phase 3, each Headliner first), and plays each to the end of the round with every seat played by
the sensible player; the round's end is judged by posterity, plus what the Hall of Fame promises
for the rounds still to come. It sends the sensible email unless another one clearly does better.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from pbem.games.bigtime import ENGINE, bot
from pbem.games.bigtime.actions import Action, Bid, PreferHeadliner
from pbem.games.bigtime.components import BigTimeData
from pbem.games.bigtime.events import Booked
from pbem.games.bigtime.payment import sub_multisets, without
from pbem.games.bigtime.show import icons_score
from pbem.games.bigtime.state import BigTimeState, Booking, Order, Theater
from pbem.games.bigtime.views import BigTimeView, BookedAct, TheaterView
from pbem.games.rng import Rng
from pbem.games.search import Budget, Search, choose, win_share

BIDS_TRIED = 7  # the sensible bid's total and the totals nearest it
# Eight samples tell the bids apart well enough (and take about 0.1 s of a core).
BUDGET = Budget(iterations=8, cpu_seconds=0.4, wall_seconds=2.0)
LEAD_SCALE = 4.0  # posterity lead worth about three chances in four of winning
HALL_WORTH = 0.8  # share of a Hall of Fame's score now counted for each round still to come


def determinize(view: BigTimeView, data: BigTimeData, rng: Rng) -> BigTimeState:
    """A full state consistent with the seat's view; the hidden cards drawn with `rng`."""
    own = view.private[0]
    troupers = set(data.troupers)
    shown = {offered.act.card for row in (view.am_row, view.pm_row) for offered in row}
    coming_am = [stack.face_up.card for stack in view.coming_soon]
    unseen_troupers = [c for c in data.troupers if c not in shown and c not in coming_am]
    seen_headliners = {o.act.card for o in view.headliner_row} | {
        act.card
        for theater in view.theaters
        for act in (
            *(b.act for b in theater.playbill),
            *theater.hall_of_fame,
            *(b.act for b in theater.last_show),
        )
        if act.card not in troupers
    }
    unseen_headliners = [c for c in data.headliners if c not in seen_headliners]
    coming_pm = rng.draw(unseen_troupers, len(coming_am))
    face_down = rng.draw(unseen_headliners, len(coming_am))
    theaters = [
        _theater(view, data, theater, rng) if theater.seat != own.seat else _own(view, theater)
        for theater in view.theaters
    ]
    for theater, shown_theater in zip(theaters, view.theaters, strict=True):
        theater.last_show = _bookings(shown_theater.last_show)
        theater.hooked = next((b.act.card for b in shown_theater.last_show if b.hooked), None)
        theater.box_office = shown_theater.box_office
    revealed = [theater.revealed_bid for theater in view.theaters]
    return BigTimeState(
        data=data,
        data_file=None,
        rng=Rng(rng.next64()),
        theaters=theaters,
        chart={marker.act_type: marker.space for marker in view.chart},
        headliner_deck=unseen_headliners,
        round=view.round,
        phase=view.phase,
        over=view.over,
        am_row=[o.act.card for o in view.am_row],
        pm_row=[o.act.card for o in view.pm_row],
        coming_am=coming_am,
        coming_pm=coming_pm,
        headliner_row=[o.act.card for o in view.headliner_row] if view.phase > 1 else face_down,
        revealed_bids=[bid for bid in revealed if bid is not None],
        last_picks=[
            Booked(pick.row, pick.seat, pick.act.card, pick.paid, pick.penalty)
            for pick in view.last_picks
        ],
    )


def _bookings(booked: tuple[BookedAct, ...]) -> list[Booking]:
    return [Booking(b.act.card, b.paid, b.penalty) for b in booked]


def _own(view: BigTimeView, theater: TheaterView) -> Theater:
    own = view.private[0]
    return Theater(
        hand=own.hand,
        review=theater.review,
        posterity=theater.posterity,
        playbill=_bookings(theater.playbill),
        hall_of_fame=[act.card for act in theater.hall_of_fame],
        hook_choice=own.hook,
        order=None if own.bid is None else Order(own.bid, own.am, own.pm),
        headliner_prefs=own.headliner,
    )


def _theater(view: BigTimeView, data: BigTimeData, theater: TheaterView, rng: Rng) -> Theater:
    """Another player's theater: its hand drawn, its sealed order and Hook unknown (so none)."""
    return Theater(
        hand=_hand(view, data, theater, rng),
        review=theater.review,
        posterity=theater.posterity,
        playbill=_bookings(theater.playbill),
        hall_of_fame=[act.card for act in theater.hall_of_fame],
    )


def _hand(view: BigTimeView, data: BigTimeData, theater: TheaterView, rng: Rng) -> tuple[int, ...]:
    """Money cards with the public count and total, from the round's cards (and in round one the
    bonus card the starting review brings); in phase 2 the revealed bid tells them exactly."""
    full = data.money_cards
    bonus = data.bonus_card.get(len(view.theaters), {})
    if view.round == 1 and theater.review in bonus:
        full = tuple(sorted((*full, bonus[theater.review]), reverse=True))
    if view.phase == 2 and theater.revealed_bid is not None:
        return without(full, theater.revealed_bid)
    fitting = [
        hand
        for hand in sub_multisets(full)
        if len(hand) == theater.cards_left and sum(hand) == theater.money_left
    ]
    # no such hand only when the money cards are not the packaged ones' kind; any will do then
    return rng.choice(fitting) if fitting else full[: theater.cards_left]


def sensible(view: BigTimeView, data: BigTimeData, rng: Rng) -> list[Action]:
    return bot.bot_actions(determinize(view, data, rng), view.private[0].seat, rng)


def random(view: BigTimeView, data: BigTimeData, rng: Rng) -> list[Action]:
    return ENGINE.random_actions(determinize(view, data, rng), view.private[0].seat, rng)


@dataclass(frozen=True)
class StrongPlayer:
    """The `strong` level: the best of a few emails by determinized rollouts."""

    data: BigTimeData
    budget: Budget = field(default_factory=lambda: BUDGET)

    def __call__(self, view: BigTimeView, rng: Rng) -> list[Action]:
        seat = view.private[0].seat
        if view.over:
            return []
        prior = determinize(view, self.data, Rng(rng.next64()))
        first = bot.bot_actions(prior, seat, rng)
        emails = candidates(prior, seat, first)
        search = Search(ENGINE, bot.bot_actions, horizon=round_end)
        return choose(
            search, seat, lambda dice: determinize(view, self.data, dice), emails, rng, self.budget
        )


def candidates(state: BigTimeState, seat: int, first: list[Action]) -> list[list[Action]]:
    """The sensible email first; then the same preferences with the bids of the totals nearest
    its bid (the fewest cards for each total), or in phase 3 each other Headliner put first."""
    *lines, last = first
    if isinstance(last, PreferHeadliner):
        return [first] + [
            [*lines, PreferHeadliner((card, *(c for c in last.acts if c != card)))]
            for card in state.headliner_row
            if not last.acts or card != last.acts[0]
        ]
    assert isinstance(last, Bid)
    fewest: dict[int, tuple[int, ...]] = {}
    for bid in sub_multisets(state.theaters[seat].hand):
        if sum(bid) not in fewest or len(bid) < len(fewest[sum(bid)]):
            fewest[sum(bid)] = bid
    aimed = sum(last.cards)
    totals = sorted(fewest, key=lambda total: (abs(total - aimed), total))[:BIDS_TRIED]
    return [first] + [[*lines, Bid(fewest[total])] for total in totals if total != aimed]


def round_end(start: BigTimeState) -> Callable[[BigTimeState, int], float | None]:
    """A judge of the rollout once the round it starts in is over: the game's outcome at the
    end, else the seat's lead in posterity and promised Hall of Fame points, as a chance."""
    first_round = start.round

    def judge(state: BigTimeState, seat: int) -> float | None:
        if state.over:
            return win_share(ENGINE.outcome(state), seat)
        if state.round == first_round:
            return None
        later = state.data.rounds - state.round + 1
        worth = [
            theater.posterity + HALL_WORTH * later * icons_score(state, theater.hall_of_fame)
            for theater in state.theaters
        ]
        lead = worth[seat] - max(w for other, w in enumerate(worth) if other != seat)
        return 1 / (1 + math.exp(-lead / LEAD_SCALE))

    return judge
