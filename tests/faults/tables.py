"""The games the crash test plays, and starting them on a database."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Engine
from sqlmodel import Session, col, select

from pbem.moderator.desk import Desk
from pbem.moderator.start import GameRequest, PlayerSpec, start_game
from pbem.settings import Settings
from pbem.store import GameRow, session_scope

# 4 rounds of 3 phases; one order per player and phase.
PHASES_PER_GAME = 12


def bigtime_requests(player_counts: list[int]) -> list[GameRequest]:
    """One seeded Big Time! game per entry, with that many players of its own."""
    return [
        GameRequest(
            game="bigtime",
            players=tuple(PlayerSpec(f"g{game}p{seat}@example.org") for seat in range(players)),
            seed=100 + game,
        )
        for game, players in enumerate(player_counts)
    ]


def order_count(requests: list[GameRequest]) -> int:
    return sum(len(request.players) for request in requests) * PHASES_PER_GAME


def start_games(engine: Engine, settings: Settings, requests: list[GameRequest]) -> list[str]:
    ids = []
    for request in requests:
        with session_scope(engine) as session:
            ids.append(start_game(Desk(session, settings), request).id)
    return ids


def game_states(engine: Engine) -> dict[str, tuple[str, Any]]:
    """(status, decoded state) of every game, by id."""
    with Session(engine) as session:
        rows = session.exec(select(GameRow).order_by(col(GameRow.id))).all()
        return {row.id: (row.status, json.loads(row.state)) for row in rows}
