"""The identifiers pbem hands out: short game ids, seat secrets, and keys of received emails."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Collection

from sqlalchemy import update
from sqlmodel import Session, col

from pbem.games.registry import TAGS, UnknownGame
from pbem.store.conflicts import insert_unless_present
from pbem.store.tables import CounterRow, table_of

# Lowercase letters a player cannot misread or mistype for another: no i, l or o.
SECRET_ALPHABET = "abcdefghjkmnpqrstuvwxyz"
SECRET_LENGTH = 5


def next_game_id(session: Session, game: str) -> str:
    """A new id such as `sm-12`: the game's tag and the next number of that game's counter."""
    if game not in TAGS:
        raise UnknownGame(f"unknown game {game!r}: choose one of {', '.join(TAGS)}")
    tag = TAGS[game]
    return f"{tag}-{next_number(session, f'game-id:{tag}')}"


def next_number(session: Session, counter: str) -> int:
    """1, 2, 3, ... per counter name, never repeated even when two processes ask at once.

    The UPDATE locks the counter's row until the transaction ends, so concurrent callers queue.
    """
    insert_unless_present(session, table_of(CounterRow), {"name": counter, "value": 0}, "name")
    bump = (
        update(CounterRow)
        .where(col(CounterRow.name) == counter)
        .values(value=col(CounterRow.value) + 1)
        .returning(col(CounterRow.value))
    )
    return int(session.execute(bump).scalar_one())


def new_secret(taken: Collection[str] = ()) -> str:
    """A short random token for a seat's reply address, different from every one in `taken`."""
    while True:
        secret = "".join(secrets.choice(SECRET_ALPHABET) for _ in range(SECRET_LENGTH))
        if secret not in taken:
            return secret


def message_key(message_id: str | None, raw: bytes) -> str:
    """What identifies a received email: its Message-ID, or a hash of its bytes when it has none."""
    if message_id and message_id.strip():
        return message_id.strip()
    return f"sha256:{hashlib.sha256(raw).hexdigest()}"
