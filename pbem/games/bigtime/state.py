"""The whole state of a Big Time! game: plain dataclasses, changed in place by the rules modules.

Money is kept as card values (a hand is a tuple, highest card first); acts are card ids. Rows keep
the order they were dealt in, which is the order ties between acts are broken by.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.games.bigtime.components import BigTimeData
from pbem.games.bigtime.events import Booked
from pbem.games.rng import Rng

AM = "A.M."
PM = "P.M."
HEADLINERS = "Headliner"


@dataclass(slots=True)
class Draft:
    """Preferences from the email being read, filed together with its BID (or HEADLINER)."""

    am: tuple[str, ...] = ()
    pm: tuple[str, ...] = ()
    headliner: tuple[str, ...] | None = None


@dataclass(slots=True)
class Order:
    """An order on file in phase 1 or 2; a later email replaces it until the phase resolves."""

    bid: tuple[int, ...]
    am: tuple[str, ...] = ()
    pm: tuple[str, ...] = ()


@dataclass(slots=True)
class Booking:
    """An act on a playbill, what was paid for it, and its penalty marker (0 for none)."""

    card: str
    paid: tuple[int, ...]
    penalty: int


@dataclass(slots=True)
class Theater:
    hand: tuple[int, ...]
    review: str
    posterity: int = 0
    playbill: list[Booking] = field(default_factory=list)
    hall_of_fame: list[str] = field(default_factory=list)
    hook_choice: str | None = None  # HOOK <card>: kept for the round
    order: Order | None = None
    draft: Draft = field(default_factory=Draft)
    headliner_prefs: tuple[str, ...] | None = None  # on file for phase 3; () = the default pick
    last_show: list[Booking] = field(default_factory=list)  # the previous round's playbill
    box_office: int | None = None  # of the last show
    hooked: str | None = None  # the act of the last show that got the Hook


@dataclass(slots=True)
class RoundDeal:
    """Rows fixed by the game's set-up for one round; None rows are dealt from the seed."""

    am: list[str] | None = None
    pm: list[str] | None = None
    coming_am: list[str] | None = None
    coming_pm: list[str] | None = None
    headliners: list[str] | None = None


@dataclass(slots=True)
class BigTimeState:
    data: BigTimeData
    data_file: str | None  # None: the packaged data
    rng: Rng
    theaters: list[Theater]
    chart: dict[str, int]  # act type -> space
    headliner_deck: list[str]  # Headliners not dealt yet; never reshuffled
    fixed_deals: dict[int, RoundDeal] = field(default_factory=dict)  # by round number
    round: int = 1
    phase: int = 1
    over: bool = False
    am_row: list[str] = field(default_factory=list)
    pm_row: list[str] = field(default_factory=list)
    coming_am: list[str] = field(default_factory=list)  # face up on the Coming Soon stacks
    coming_pm: list[str] = field(default_factory=list)  # face down under them
    headliner_row: list[str] = field(default_factory=list)  # face down in phase 1
    revealed_bids: list[tuple[int, ...]] = field(default_factory=list)  # of the last resolution
    # The last resolution's picks: its Booked events, kept for the status emails.
    last_picks: list[Booked] = field(default_factory=list)

    @property
    def phase_key(self) -> str:
        return "over" if self.over else f"r{self.round}p{self.phase}"

    @property
    def players(self) -> int:
        return len(self.theaters)
