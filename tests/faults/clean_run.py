"""The reference: the same games fed the same orders in one process that never crashes."""

from __future__ import annotations

from typing import Any

from sqlmodel import Session, col, select

from pbem.moderator.desk import Desk
from pbem.moderator.inbound import handle_inbound
from pbem.moderator.start import GameRequest
from pbem.settings import Settings
from pbem.store import OutboxRow, open_database, session_scope
from tests.faults.players import Players
from tests.faults.tables import game_states, start_games


def clean_run(
    database_url: str, settings: Settings, requests: list[GameRequest]
) -> tuple[dict[str, tuple[str, Any]], Players]:
    """The games' final (status, state) when every status email is answered at once, in order."""
    engine = open_database(database_url)
    try:
        start_games(engine, settings, requests)
        players = Players()
        read_up_to = 0
        while True:
            with Session(engine) as session:
                rows = session.exec(
                    select(OutboxRow)
                    .where(col(OutboxRow.id) > read_up_to)
                    .order_by(col(OutboxRow.id))
                ).all()
            if not rows:
                return game_states(engine), players
            for row in rows:
                read_up_to = max(read_up_to, row.id or 0)
                order = players.answer(row.raw)
                if order is not None:
                    with session_scope(engine) as session:
                        handle_inbound(Desk(session, settings), order, "clean-run")
    finally:
        engine.dispose()
