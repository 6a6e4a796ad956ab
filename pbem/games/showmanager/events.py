"""What happens in a Show Manager game, as data: seats, card ids, musical and city indexes.

`pbem/templates/events/showmanager.j2` tells each kind to a reader. A production is its musical
and the owner's number (`Wolf#2`).
"""

from __future__ import annotations

from pbem.games.base import Event, record


@record
class DeckRebuilt(Event):
    kind = "showmanager.deck_rebuilt"
    cards: int


@record
class Loaned(Event):
    kind = "showmanager.loaned"
    seat: int
    musical: int
    number: int
    points: int
    value: int  # the production's value after the loan
    place: int  # its rank in the city after the loan, from 0
    city: int


@record
class LoanPaid(Event):
    """Private to the borrower: the money received and now held."""

    kind = "showmanager.loan_paid"
    seat: int
    received: int
    money: int


@record
class Refreshed(Event):
    kind = "showmanager.refreshed"
    seat: int
    cost: int
    discarded: tuple[int, ...]
    display: tuple[int | None, ...]  # the new display, slot by slot


@record
class Paid(Event):
    """Private to the payer, after a refresh or a hire: money left and cards held."""

    kind = "showmanager.paid"
    seat: int
    cost: int
    money: int
    cards: int | None = None  # after a hire: the cards now in hand


@record
class Hired(Event):
    kind = "showmanager.hired"
    seat: int
    card: int
    slot: int
    cost: int
    newcomer: int | None  # the card that entered the dearest slot; None: it stays empty
    last_slot: int


@record
class ToursOpened(Event):
    kind = "showmanager.tours_opened"
    musical: int
    city: int
    values: tuple[int, ...]


@record
class Staged(Event):
    kind = "showmanager.staged"
    seat: int
    musical: int
    number: int
    city: int
    value: int
    cast: tuple[int, ...]  # one card per role, in cast-list order
    bonus: int
    place: int  # from 0
    chips: int  # productions in the city now


@record
class SatOut(Event):
    kind = "showmanager.sat_out"
    seat: int


@record
class TurnSkipped(Event):
    kind = "showmanager.turn_skipped"
    seat: int


@record
class GameOver(Event):
    kind = "showmanager.game_over"
    standings: tuple[tuple[int, int, int], ...]  # (seat, points, money), best first
    winner: int | None  # None: the top is tied


@record
class MoneyChanged(Event):
    """The game master changed a player's money; the amount is told only to that player."""

    kind = "showmanager.money_changed"
    seat: int


@record
class MoneySet(Event):
    kind = "showmanager.money_set"
    seat: int
    amount: int


@record
class ValueSet(Event):
    kind = "showmanager.value_set"
    seat: int
    musical: int
    number: int
    value: int
    place: int  # from 0
    city: int
