"""The orders of a Big Time! phase (ORDERS.md). One email's lines together make one submission.

Acts are card ids (`T07`, `H31`); the parser resolves the status email's short codes (`A1`, `P2`,
`H1`) to ids against the phase the email answers.
"""

from __future__ import annotations

from pbem.games.base import record


@record
class Bid:
    """BID <cards>: money cards from hand, by value; BID 0 is the empty tuple."""

    cards: tuple[int, ...]


@record
class PreferAM:
    acts: tuple[str, ...]


@record
class PreferPM:
    acts: tuple[str, ...]


@record
class PreferHeadliner:
    """HEADLINER [acts]: phase 3 preferences; empty means the default pick. May come in phase 2."""

    acts: tuple[str, ...]


@record
class Hook:
    """HOOK <card id>: which of the player's equal-lowest acts takes the Hook on a Flop."""

    card: str


Action = Bid | PreferAM | PreferPM | PreferHeadliner | Hook
