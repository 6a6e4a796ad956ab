"""A Big Time! computer player that bids in proportion to what is on offer, from what its seat may
see.

An act is worth its icons times what its type scores on the Public Opinion chart now (a Headliner
also for every later round, from the Hall of Fame), plus a little for its value (Box Office, so the
reviews) and for a type new to the playbill (variety). The round's money is split over the three
Talent Buys by the worth of the acts on offer now and coming (the face-up Coming Soon Troupers, an
average act for the face-down ones), keeping enough back for a Headliner. Within that budget the
bot tries each bid its hand can make against the other players bidding the same share of their
money, and sends the one that books the most worth. Preferences rank the acts by worth; the Hook
goes on the act it would miss least.

It reads only public things and its own: the rows face up, the Coming Soon face-up Troupers, the
chart, every playbill, Hall of Fame and review, each player's money left (public in this game),
and its own hand. Never another hand's cards, an order on file, or a face-down card.
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.games.bigtime.actions import Action, Bid, Hook, PreferAM, PreferHeadliner, PreferPM
from pbem.games.bigtime.components import Act
from pbem.games.bigtime.payment import choose_act, sub_multisets, without
from pbem.games.bigtime.state import BigTimeState
from pbem.games.rng import Rng

BOX_OFFICE = 0.3  # worth of one point of value: better reviews, no Hook, the Smash's push
VARIETY = 0.3  # worth of a type new to the playbill
HALL_OF_FAME = 0.8  # share of a Headliner's icon worth counted for each later round
HEADLINER_RESERVE = 7  # money kept for the Headliner while its row is face down
SPENDING = 0.05  # worth of a unit of money bid: among equal bookings, the cheaper bid


def bot_actions(state: BigTimeState, seat: int, rng: Rng) -> list[Action]:
    """One email for `seat`: a bid with ranked A.M. and P.M. preferences (phases 1-2) or ranked
    Headliner preferences (phase 3), and the Hook. The bid or HEADLINER comes last."""
    if state.over:
        return []
    worth = ActWorth(state, seat)
    hook = _hook(state, seat, worth)
    orders: list[Action] = [hook] if hook is not None else []
    if state.phase == 3:
        return [*orders, PreferHeadliner(worth.ranked(state.headliner_row))]
    am, pm = worth.ranked(state.am_row), worth.ranked(state.pm_row)
    bid = _bid(state, seat, worth, am, pm, rng)
    return [*orders, PreferAM(am), PreferPM(pm), Bid(bid)]


class ActWorth:
    """What acts are worth to one seat now."""

    def __init__(self, state: BigTimeState, seat: int) -> None:
        data = state.data
        self.acts = data.acts
        self.later_rounds = data.rounds - state.round
        self.types_booked = {self.acts[b.card].act_type for b in state.theaters[seat].playbill}
        self.type_worth = {}
        for act_type, space in state.chart.items():
            tier = data.tier_of[space]
            # a marker high in its tier is nearer the next one up: a little more promising
            climb = (space - tier.low) / (tier.high - tier.low + 1)
            self.type_worth[act_type] = tier.posterity + 0.25 * climb + 0.1

    def icons(self, act: Act) -> float:
        """The posterity the act's icons promise: this round, and later ones from the Hall."""
        rounds = 1 + (HALL_OF_FAME * self.later_rounds if act.is_headliner else 0)
        return act.icons * self.type_worth[act.act_type] * rounds

    def of(self, card: str, penalty: int = 0) -> float:
        act = self.acts[card]
        new_type = VARIETY if act.act_type not in self.types_booked else 0.0
        return self.icons(act) + BOX_OFFICE * (act.value - penalty) + new_type

    def ranked(self, row: Sequence[str]) -> tuple[str, ...]:
        """The row's acts, best first; ties in row order."""
        return tuple(sorted(row, key=lambda card: -self.of(card)))

    def best(self, row: Sequence[str]) -> float:
        return max((self.of(card) for card in row), default=0.0)

    def average(self, cards: Sequence[str]) -> float:
        return sum(map(self.of, cards)) / len(cards) if cards else 0.0


def _bid(
    state: BigTimeState,
    seat: int,
    worth: ActWorth,
    am: tuple[str, ...],
    pm: tuple[str, ...],
    rng: Rng,
) -> tuple[int, ...]:
    """The bid within this phase's budget that books the most worth against the expected bids."""
    hand = state.theaters[seat].hand
    money = sum(hand)
    share = _budget(state, seat, worth) / money if money else 0.0
    others = {
        other: round(sum(theater.hand) * share)
        for other, theater in enumerate(state.theaters)
        if other != seat
    }
    best_score = float("-inf")
    best_bids: list[tuple[int, ...]] = [()]
    for bid in sub_multisets(hand):
        if sum(bid) > share * money + 0.5:
            continue
        score = _booked_worth(state, seat, worth, bid, am, pm, others) - SPENDING * sum(bid)
        if score > best_score + 1e-9:
            best_score, best_bids = score, [bid]
        elif score > best_score - 1e-9:
            best_bids.append(bid)
    return rng.choice(best_bids)


def _budget(state: BigTimeState, seat: int, worth: ActWorth) -> float:
    """This phase's share of the money: what is kept for the Headliner aside, the rest split
    between the Trouper buys by the worth of the acts on offer in each."""
    money = sum(state.theaters[seat].hand)
    if state.phase == 2:
        favourite = worth.ranked(state.headliner_row)[0]
        return max(0.0, money - worth.acts[favourite].value)
    now = worth.best(state.am_row) + worth.best(state.pm_row)
    public = {*state.am_row, *state.pm_row, *state.coming_am}
    unseen = [card for card in state.data.troupers if card not in public]
    coming = worth.best(state.coming_am) + worth.average(unseen)
    troupers = max(0.0, money - HEADLINER_RESERVE)
    return troupers * now / (now + coming) if now + coming > 0 else troupers / 2


def _booked_worth(
    state: BigTimeState,
    seat: int,
    worth: ActWorth,
    bid: tuple[int, ...],
    am: tuple[str, ...],
    pm: tuple[str, ...],
    others: dict[int, int],
) -> float:
    """The worth the seat books with `bid` if each other player bids as expected and takes the
    dearest act that bid pays (the default pick); ties in bid order go to the worse review."""
    stars = state.data.review_stars
    left: dict[int, tuple[int, ...]] = {other: (1,) * amount for other, amount in others.items()}
    left[seat] = bid
    total = 0.0
    for row, prefs in ((state.am_row, am), (state.pm_row, pm)):
        open_acts = list(row)
        order = sorted(left, key=lambda s: (-sum(left[s]), stars[state.theaters[s].review]))
        for picker in order:
            if not open_acts:
                break
            mine = picker == seat
            card, paid, penalty = choose_act(
                open_acts, worth.acts, left[picker], prefs if mine else ()
            )
            open_acts.remove(card)
            left[picker] = without(left[picker], paid)
            if mine:
                total += worth.of(card, penalty)
    return total


def _hook(state: BigTimeState, seat: int, worth: ActWorth) -> Hook | None:
    """The Hook on the act missed least among those tied for the lowest value after penalty
    (only those can take it); nothing to say without a tie."""
    playbill = state.theaters[seat].playbill
    if not playbill:
        return None
    acts = worth.acts
    lowest = min(acts[b.card].value - b.penalty for b in playbill)
    tied = [b.card for b in playbill if acts[b.card].value - b.penalty == lowest]
    if len(tied) < 2:
        return None
    return Hook(min(tied, key=lambda card: worth.icons(acts[card])))
