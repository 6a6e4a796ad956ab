"""The actions of a Show Manager turn, as the order language names them (ORDERS.md).

Names are canonical: musicals, cities and roles as `name` in the component data (the standard
theme), whatever theme the player wrote them in; the parser does that translation.
"""

from __future__ import annotations

from pbem.games.base import record


@record
class Loan:
    """LOAN <musical>[#n] <points>: borrow against one of the player's own productions."""

    musical: str
    points: int
    number: int | None = None  # WOLF#2 -> 2; None: the only one of that musical on the board


@record
class Refresh:
    """REFRESH: pay 2 and replace the four displayed cards (REFRESH 2 is two of these)."""


@record
class Hire:
    """HIRE <slot> or HIRE #<card id>: exactly one of the two is set."""

    slot: int | None = None
    card: int | None = None


@record
class Stage:
    """STAGE <musical> <card ids> [IN <city>], optionally with an explicit casting card=role."""

    musical: str
    cards: tuple[int, ...]
    city: str | None = None
    casting: tuple[tuple[int, str], ...] = ()  # (card id, role name) pairs the player fixed


Action = Loan | Refresh | Hire | Stage
