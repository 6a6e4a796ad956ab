"""What the moderator does around the rules, as data: a game starting, seats changing hands, the
game master's overrides, moves made for a player, undeliverable mail.

`pbem/templates/events/moderator.j2` tells each kind to a reader, like the engines' events.
"""

from __future__ import annotations

from typing import Literal

from pbem.games.base import Event, record

# Why the moderator moved for a seat: the deadline's default orders, the deadline's skip,
# orders the game master entered, or the default orders of a player who is away (AWAY).
StandIn = Literal["default", "skip", "gm", "away"]
# How an absence ended: the player wrote BACK, its day came, or the game master ended it.
AwayEnd = Literal["back", "over", "gm"]


@record
class GameStarted(Event):
    """The game began; `press` (`games.press`) says who reads table talk, for the welcome."""

    kind = "moderator.game_started"
    press: str = "all"


@record
class SeatLeft(Event):
    """A computer player took the seat: the player resigned, or the game master removed them."""

    kind = "moderator.seat_left"
    seat: int
    removed: bool = False
    # The player was away until this day ("4 Dec 2026"): their absence ended with the seat.
    away_until: str | None = None


@record
class SeatMoved(Event):
    """The game master gave a seat a new address (the address itself is never told)."""

    kind = "moderator.seat_moved"
    seat: int
    old_name: str = ""  # who played it before (the seat's name may change with it)
    # The earlier holder's sealed order was taken back: the phase waits for the new holder's.
    order_taken_back: bool = False
    # The earlier holder was away until this day ("4 Dec 2026"): their absence ended with it.
    away_until: str | None = None


@record
class Welcome(Event):
    """What the start's welcome tells besides the start (the players, how to order and talk),
    told to a seat's newcomer (`gm replace`) with their takeover (`moved`). Only in their
    welcome letter, never in the history: their takeover is the entry's event, told once."""

    kind = "moderator.welcome"
    moved: SeatMoved
    press: str


@record
class Paused(Event):
    kind = "moderator.paused"
    resumed: bool = False


@record
class DeadlineSet(Event):
    kind = "moderator.deadline_set"
    hours: float | None
    policy: str
    next_at: str | None = None  # the next deadline, "2026-12-03 17:00 UTC"


@record
class StatusResent(Event):
    kind = "moderator.status_resent"
    seat: int | None  # None: to every player


@record
class Undone(Event):
    kind = "moderator.undone"
    entry: int
    where: str = ""  # the turn or phase the game is back at, "round 2, phase 1"
    # The undone entries showed cards still unseen at `where`: they were shuffled again.
    reshuffled: bool = False
    # They revealed the sealed orders on file at `where`: every one was taken back.
    orders_taken_back: bool = False
    # Whose turn the game is back at (a turn-based game): told as "your turn" to that seat.
    turn: int | None = None


@record
class WaitingOrdersRefused(Event):
    """A seat's early orders, kept for its turn, could not be carried out when it came: told in
    the status that says it is the seat's turn, so the newest email holds it (play-testing: a
    notice of its own came beside that status, which said nothing of it)."""

    kind = "moderator.waiting_refused"
    seat: int
    lines: str  # the orders as the player wrote them, a line each joined by " / "
    reason: str


@record
class OrdersQueued(Event):
    """The game master entered orders for a seat before its turn: they wait for it."""

    kind = "moderator.orders_queued"
    seat: int


@record
class StartedByGm(Event):
    """The game master started a game open for sign-up (`pbem gm start`), full or not."""

    kind = "moderator.started_by_gm"
    people: int  # the players who had signed up
    computers: int  # the computer players added to reach the game's fewest players


@record
class GmReason(Event):
    """Why the game master did what the events before it tell, in the game master's words."""

    kind = "moderator.gm_reason"
    text: str


@record
class PlayedFor(Event):
    """Orders the moderator carried out for a seat, and what they did: never the seat's own."""

    kind = "moderator.played_for"
    seat: int
    cause: StandIn
    events: tuple[Event, ...] = ()


@record
class Reminder(Event):
    kind = "moderator.reminder"
    due: str


@record
class MailBounced(Event):
    kind = "moderator.mail_bounced"
    seat: int


@record
class Said(Event):
    """Table talk (SAY): to everyone, or to `addressee` alone, whose event is then `to` the
    two of them only, so nobody else is ever told its words."""

    kind = "moderator.said"
    seat: int
    text: str
    addressee: int | None = None


@record
class Whispered(Event):
    """What the others learn of private talk in a game with public press: that it happened,
    never its words (`to` the others only)."""

    kind = "moderator.whispered"
    seat: int
    addressee: int


TALK = (Said, Whispered)


@record
class AwayStarted(Event):
    """A player is away until `until` ("12 Dec"): the moderator plays for them, or (`wait`) the
    deadlines wait for them."""

    kind = "moderator.away_started"
    seat: int
    until: str
    wait: bool = False


@record
class AwayEnded(Event):
    kind = "moderator.away_ended"
    seat: int
    end: AwayEnd
    wait: bool = False  # under `wait`: the deadlines run again (else: the player plays again)
