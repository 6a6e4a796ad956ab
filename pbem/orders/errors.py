"""The one error type of the order layer: a caller's or a data file's mistake, never a player's."""

from __future__ import annotations


class OrdersError(ValueError):
    """An unknown game, or a component data file the order parser cannot read names from."""
