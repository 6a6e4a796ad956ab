"""Who watches a game: addresses that follow its public status, kept apart from its seats."""

from __future__ import annotations

from sqlalchemy import bindparam
from sqlmodel import Session, col, select

from pbem.store.tables import WatcherRow


def watchers_of(session: Session, game_id: str) -> list[str]:
    """The watching addresses of a game, in the order they came."""
    return list(session.exec(_WATCHERS_OF, params={"game_id": game_id}).all())


# Asked at every move of every game: built once, and only the addresses read.
_WATCHERS_OF = (
    select(WatcherRow.address)
    .where(col(WatcherRow.game_id) == bindparam("game_id"))
    .order_by(col(WatcherRow.id))
)


def add_watcher(session: Session, game_id: str, address: str) -> bool:
    """Make `address` watch the game; False when it already did (nothing changes)."""
    address = address.lower()
    if address in watchers_of(session, game_id):
        return False
    session.add(WatcherRow(game_id=game_id, address=address))
    session.flush()
    return True


def remove_watcher(session: Session, game_id: str, address: str) -> bool:
    """Stop `address` watching the game; False when it did not watch it."""
    row = session.exec(
        select(WatcherRow)
        .where(col(WatcherRow.game_id) == game_id)
        .where(col(WatcherRow.address) == address.lower())
    ).first()
    if row is None:
        return False
    session.delete(row)
    session.flush()
    return True
