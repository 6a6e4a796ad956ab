"""pbem's database: SQLModel tables, Alembic migrations applied on open, and common queries.

SQLite by default, PostgreSQL when several daemons share one database; the same code runs on
both. See docs/database.md.
"""

from pbem.store.database import (
    DATABASE_URL_VARIABLE,
    connect_database,
    database_engine,
    database_url,
    open_database,
    session_scope,
)
from pbem.store.errors import (
    DatabaseMissing,
    GameNotFound,
    SchemaMismatch,
    StaleGame,
    StoreError,
)
from pbem.store.ids import message_key, new_secret, next_game_id
from pbem.store.queries import (
    add_outbox,
    append_history,
    bot_mail,
    due_outbox,
    games_past_deadline,
    games_with_status,
    get_game,
    get_mail_state,
    history_entry,
    history_since,
    inbound_by_key,
    inbound_with_status,
    last_history,
    lock_game,
    record_inbound,
    seat_by_address,
    seat_by_secret,
    seats_of,
    set_mail_state,
    waiting_orders,
)
from pbem.store.tables import (
    GameRow,
    HistoryRow,
    InboundRow,
    MailStateRow,
    OutboxRow,
    QueuedOrderRow,
    SeatRow,
)
from pbem.store.types import utc_now

__all__ = [
    "DATABASE_URL_VARIABLE",
    "DatabaseMissing",
    "GameNotFound",
    "GameRow",
    "HistoryRow",
    "InboundRow",
    "MailStateRow",
    "OutboxRow",
    "QueuedOrderRow",
    "SchemaMismatch",
    "SeatRow",
    "StaleGame",
    "StoreError",
    "add_outbox",
    "append_history",
    "bot_mail",
    "connect_database",
    "database_engine",
    "database_url",
    "due_outbox",
    "games_past_deadline",
    "games_with_status",
    "get_game",
    "get_mail_state",
    "history_entry",
    "history_since",
    "inbound_by_key",
    "inbound_with_status",
    "last_history",
    "lock_game",
    "message_key",
    "new_secret",
    "next_game_id",
    "open_database",
    "record_inbound",
    "seat_by_address",
    "seat_by_secret",
    "seats_of",
    "session_scope",
    "set_mail_state",
    "utc_now",
    "waiting_orders",
]
