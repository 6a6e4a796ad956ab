"""The one error type of the Show Manager engine: bad component data or a misused engine call.

A player's illegal order is never an exception: it is a `Refusal`.
"""

from __future__ import annotations


class ShowManagerError(ValueError):
    """Component data that cannot be played, or a call no legal game could make."""
