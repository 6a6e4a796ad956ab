"""The store layer's errors: a game that is not there, or one another process changed first."""

from __future__ import annotations


class StoreError(Exception):
    """Anything the database layer cannot do as asked."""


class GameNotFound(StoreError, LookupError):
    pass


class StaleGame(StoreError):
    """Another process saved the game since this session read it; reload and try again."""


class SchemaMismatch(StoreError):
    """The database's schema is not the one this code was written for: behind (run `pbem db
    upgrade`) or ahead (a newer pbem made it). Nothing was changed."""


class DatabaseMissing(StoreError):
    """No pbem database there yet; a command that only reads does not create one."""
