"""The store layer's errors: a game that is not there, or one another process changed first."""

from __future__ import annotations


class StoreError(Exception):
    """Anything the database layer cannot do as asked."""


class GameNotFound(StoreError, LookupError):
    pass


class StaleGame(StoreError):
    """Another process saved the game since this session read it; reload and try again."""
