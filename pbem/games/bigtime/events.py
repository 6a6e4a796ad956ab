"""What happens in a game of The Big Time!, as data: seats, act card ids, money cards.

`pbem/templates/events/bigtime.j2` tells each kind to a reader. Money is a tuple of money cards
(`(3, 3, 1)`); rows are named as the state names them (A.M., P.M., Headliners).
"""

from __future__ import annotations

from pbem.games.base import Event, record


@record
class RoundDealt(Event):
    kind = "bigtime.round_dealt"
    round: int
    am: tuple[str, ...]
    pm: tuple[str, ...]
    coming: tuple[str, ...]  # the face-up Troupers on the Coming Soon stacks


@record
class OrderFiled(Event):
    """Private to the seat: its order for a Talent Buy phase."""

    kind = "bigtime.order_filed"
    seat: int
    round: int
    phase: int
    bid: tuple[int, ...]
    am: tuple[str, ...]
    pm: tuple[str, ...]
    headliner: tuple[str, ...] | None

    @property
    def files(self) -> tuple[object, ...]:
        return ("order", self.seat, self.round, self.phase)


@record
class HeadlinersFiled(Event):
    """Private to the seat: its Headliner preferences for phase 3."""

    kind = "bigtime.headliners_filed"
    seat: int
    acts: tuple[str, ...]

    @property
    def files(self) -> tuple[object, ...]:
        return ("headliners", self.seat)


@record
class HookChosen(Event):
    kind = "bigtime.hook_chosen"
    seat: int
    card: str

    @property
    def files(self) -> tuple[object, ...]:
        return ("hook", self.seat)


@record
class BidsRevealed(Event):
    kind = "bigtime.bids_revealed"
    round: int
    phase: int
    bids: tuple[tuple[int, ...], ...]  # seat by seat


@record
class Booked(Event):
    kind = "bigtime.booked"
    row: str
    seat: int
    card: str
    paid: tuple[int, ...]
    penalty: int


@record
class Unbooked(Event):
    kind = "bigtime.unbooked"
    row: str
    cards: tuple[str, ...]


@record
class Unspent(Event):
    kind = "bigtime.unspent"
    left: tuple[tuple[int, ...], ...]  # seat by seat: money left in the bid, lost


@record
class PhaseTwo(Event):
    kind = "bigtime.phase_two"
    round: int
    am: tuple[str, ...]
    pm: tuple[str, ...]
    headliners: tuple[str, ...]


@record
class BoxOffice(Event):
    kind = "bigtime.box_office"
    seat: int
    values: int
    penalties: int
    bonus: int
    total: int


@record
class Reviewed(Event):
    kind = "bigtime.reviewed"
    ranked: tuple[tuple[int, str, int], ...]  # (seat, review, Box Office), best first


@record
class Hooked(Event):
    kind = "bigtime.hooked"
    seat: int
    card: str
    worth: int


@record
class OpinionMoved(Event):
    kind = "bigtime.opinion_moved"
    seat: int
    review: str
    act_type: str
    up: bool
    path: tuple[int, ...]
    tier: str


@record
class PosterityScored(Event):
    kind = "bigtime.posterity_scored"
    seat: int
    playbill: int
    hall_of_fame: int
    total: int


@record
class CleanedUp(Event):
    kind = "bigtime.cleaned_up"
    headliners: tuple[tuple[int, str, bool], ...]  # (seat, card, hooked): hooked ones leave


@record
class GameOver(Event):
    kind = "bigtime.game_over"
    standings: tuple[tuple[int, int], ...]  # (seat, posterity), best first
