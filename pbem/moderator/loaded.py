"""A game read from the database together with its engine, its seats and its engine state."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlmodel import Session

from pbem.games.base import Event, RulesEngine
from pbem.games.event_codec import encode_events
from pbem.games.registry import engine_for
from pbem.moderator.kinds import KINDS, GameKind
from pbem.store import (
    GameRow,
    HistoryRow,
    SeatRow,
    append_history,
    lock_game,
    save_game_state,
    seats_of,
)
from pbem.store.tables import HistoryKind


@dataclass
class LoadedGame:
    row: GameRow
    seats: list[SeatRow]
    engine: RulesEngine[Any, Any]
    state: Any

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def kind(self) -> GameKind:
        return KINDS[self.row.game]

    @property
    def data_file(self) -> Path | None:
        return Path(self.row.data_file) if self.row.data_file else None

    def seat(self, position: int) -> SeatRow:
        return self.seats[position]

    def name_of(self, position: int) -> str:
        """The name players read: never an address, so a player started without a name is
        "Player 2" (its seat) to everyone."""
        return self.seats[position].name or f"Player {position + 1}"

    @property
    def names(self) -> list[str]:
        return [self.name_of(seat.position) for seat in self.seats]

    def humans(self) -> list[SeatRow]:
        return [seat for seat in self.seats if seat.kind == "human"]


def load_game(session: Session, game_id: str) -> LoadedGame:
    """The game locked for this transaction (row lock on PostgreSQL), with its state decoded."""
    row = lock_game(session, game_id)
    return loaded_game(row, seats_of(session, game_id))


def loaded_game(row: GameRow, seats: Sequence[SeatRow]) -> LoadedGame:
    """A game whose row was read with `lock_game` and then its seats, with its state decoded."""
    engine = engine_for(row.game)
    return LoadedGame(row, list(seats), engine, engine.load(json.loads(row.state)))


def encode_state(game: LoadedGame, state: Any) -> str:
    return json.dumps(game.engine.dump(state), separators=(",", ":"))


def save_state(
    session: Session,
    game: LoadedGame,
    state: Any,
    *,
    actor: str,
    kind: HistoryKind,
    summary: str,
    why: str | None = None,
    inbound_id: int | None = None,
    events: Sequence[Event] = (),
) -> HistoryRow:
    """Make `state` the game's state and record how it came about in the history: `summary`
    for the game master, `events` for everyone."""
    encoded = encode_state(game, state)
    game.state = state
    status = "finished" if game.engine.is_over(state) else game.row.status
    save_game_state(session, game.row, encoded, status)
    return append_history(
        session,
        game.id,
        actor=actor,
        kind=kind,
        summary=summary,
        why=why,
        inbound_id=inbound_id,
        state_after=encoded,
        events=encode_events(events),
    )
