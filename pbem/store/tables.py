"""The moderator's tables. The Alembic migrations in `migrations/versions` create exactly these.

Closed sets of values (statuses, kinds, policies) are `Literal` types for the type checker and
CHECK constraints for the database, both from the same tuple of names.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any, Literal, get_args

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    Index,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import declared_attr, registry
from sqlmodel import Field, SQLModel

from pbem.store.types import UtcDateTime, utc_now

GameStatus = Literal["running", "paused", "finished"]
DeadlinePolicy = Literal["wait", "default", "skip"]
# What an away player's turns get: the default orders at once, or a deadline that waits.
AwayMode = Literal["default", "wait"]
SeatKind = Literal["human", "bot"]
BotLevel = Literal["strong", "sensible", "random"]  # pbem.games.levels.LEVELS
HistoryKind = Literal["order", "gm", "system", "talk"]
# Table talk in a game: all (SAY TO is private), public (others see that a whisper happened),
# none (no talk).
Press = Literal["all", "public", "none"]
# The largest whole number the database takes (SQLite's INTEGER, PostgreSQL's BIGINT: 64 bits,
# signed). A larger one, typed by a person, ends in an OverflowError: it is refused first.
LARGEST_INTEGER = 2**63 - 1
InboundStatus = Literal["new", "accepted", "rejected", "ignored", "failed", "queued"]
QueuedOrderStatus = Literal["waiting", "applied", "refused"]
OutboxStatus = Literal["pending", "sent", "failed"]

# Explicit names keep constraints identical on SQLite and PostgreSQL, so later migrations can
# drop or alter them by name.
NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_N_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
METADATA = MetaData(naming_convention=NAMING_CONVENTION)


class StoreModel(SQLModel, registry=registry(metadata=METADATA)):
    """Base of pbem's tables: their own metadata, apart from any other SQLModel tables."""


def table_of(model: type[StoreModel]) -> Table:
    """The Table SQLModel built for a model; SQLModel's type stubs do not declare `__table__`."""
    table: Table = model.__table__  # type: ignore[attr-defined]
    return table


def one_of(column: str, choices: Any) -> CheckConstraint:
    """A CHECK that `column` holds one of the names of the Literal type `choices`."""
    names = ", ".join(f"'{name}'" for name in get_args(choices))
    return CheckConstraint(f"{column} IN ({names})", name=column)


class GameRow(StoreModel, table=True):
    __tablename__ = "games"
    __table_args__ = (
        one_of("status", GameStatus),
        one_of("policy", DeadlinePolicy),
        one_of("press", Press),
        one_of("away_mode", AwayMode),
        Index(None, "status", "deadline_at"),
    )

    id: str = Field(primary_key=True, sa_type=String(32))
    game: str = Field(sa_type=String(32))
    variant: str = Field(sa_type=String(32))
    seed: int = Field(sa_type=BigInteger)
    status: GameStatus = Field(default="running", sa_type=String(16))
    state: str = Field(sa_type=Text)
    version: int = 1
    data_file: str | None = Field(default=None, sa_type=Text)
    deadline_hours: float | None = None
    deadline_at: datetime | None = Field(default=None, sa_type=UtcDateTime)
    policy: DeadlinePolicy = Field(default="wait", sa_type=String(16))
    # A private game refuses watchers (`pbem start --private`).
    private: bool = Field(default=False, sa_column_kwargs={"server_default": false()})
    press: Press = Field(default="all", sa_type=String(16))
    away_mode: AwayMode = Field(default="default", sa_type=String(16))
    max_away_days: int = 14  # pbem.moderator.absences.MAX_AWAY_DAYS
    created_at: datetime = Field(default_factory=utc_now, sa_type=UtcDateTime)
    updated_at: datetime = Field(
        default_factory=utc_now, sa_type=UtcDateTime, sa_column_kwargs={"onupdate": utc_now}
    )

    # Every UPDATE checks and bumps `version`, so two daemons cannot both save the same turn: the
    # second flush fails (StaleGame) instead of silently overwriting the first.
    @declared_attr.directive
    def __mapper_args__(cls: type[GameRow]) -> dict[str, Any]:
        return {"version_id_col": table_of(cls).c.version}


class SeatRow(StoreModel, table=True):
    __tablename__ = "seats"
    # The (game_id, position) unique index also serves every "seats of a game" query.
    __table_args__ = (
        UniqueConstraint("game_id", "position"),
        UniqueConstraint("game_id", "secret"),
        Index(None, "secret"),
        # The daemon looks each cycle for absences that have ended: without it, a scan of every
        # seat of every game (28 ms a cycle at 10,000 games on SQLite).
        Index(None, "away_until"),
        # Each cycle the outbox asks which pending letters go to a computer player's seat (by
        # game and address): without it PostgreSQL scans every seat of every game, twice a cycle
        # (about 1 ms each at 10,000 games).
        Index(None, "game_id", "address"),
        one_of("kind", SeatKind),
        one_of("bot_level", BotLevel),
    )

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="games.id", ondelete="CASCADE", sa_type=String(32))
    position: int
    address: str = Field(sa_type=String(320))
    name: str | None = Field(default=None, sa_type=String(200))
    secret: str = Field(sa_type=String(16))
    kind: SeatKind = Field(default="human", sa_type=String(16))
    bot_name: str | None = Field(default=None, sa_type=String(64))
    # A computer player's level; None for a person, and for a seat the computer took when a player
    # left or before levels were kept (it plays at pbem.games.levels.CARETAKER_LEVEL).
    bot_level: BotLevel | None = Field(default=None, sa_type=String(16))
    # An absence (AWAY): the player is back on this day (UTC); None when the player is here.
    away_until: date | None = None
    away_days: int = 0  # the days of absence taken in this game, against games.max_away_days


class WatcherRow(StoreModel, table=True):
    """An address that follows a game's public status (WATCH); it holds no seat and no secret,
    and is never shown to the players or to the other watchers."""

    __tablename__ = "watchers"
    # The (game_id, address) unique index also serves every "watchers of a game" query.
    __table_args__ = (UniqueConstraint("game_id", "address"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="games.id", ondelete="CASCADE", sa_type=String(32))
    address: str = Field(sa_type=String(320))  # lower-cased
    created_at: datetime = Field(default_factory=utc_now, sa_type=UtcDateTime)


class InboundRow(StoreModel, table=True):
    __tablename__ = "inbound"
    __table_args__ = (
        one_of("status", InboundStatus),
        Index(None, "status", "received_at"),
    )

    id: int | None = Field(default=None, primary_key=True)
    message_key: str = Field(unique=True, sa_type=Text)
    raw: bytes = Field(sa_type=LargeBinary)
    received_at: datetime = Field(default_factory=utc_now, sa_type=UtcDateTime)
    source: str = Field(sa_type=Text)
    status: InboundStatus = Field(default="new", sa_type=String(16))
    reason: str = Field(default="", sa_type=Text)
    game_id: str | None = Field(
        default=None, foreign_key="games.id", ondelete="SET NULL", sa_type=String(32)
    )
    attempts: int = 0


class HistoryRow(StoreModel, table=True):
    __tablename__ = "history"
    # Unique (game_id, seq): the index for reading a game's history in order, and a guard
    # against two appends taking the same number.
    __table_args__ = (
        UniqueConstraint("game_id", "seq"),
        one_of("kind", HistoryKind),
    )

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="games.id", ondelete="CASCADE", sa_type=String(32))
    seq: int
    at: datetime = Field(default_factory=utc_now, sa_type=UtcDateTime)
    actor: str = Field(sa_type=String(320))
    kind: HistoryKind = Field(sa_type=String(16))
    summary: str = Field(sa_type=Text)
    why: str | None = Field(default=None, sa_type=Text)
    inbound_id: int | None = Field(default=None, foreign_key="inbound.id", ondelete="SET NULL")
    state_after: str = Field(sa_type=Text)
    # What happened, as JSON event data (pbem.games.event_codec); None in entries made before
    # events were kept. Players are told entries from this, never from `summary`.
    events: str | None = Field(default=None, sa_type=Text)


class QueuedOrderRow(StoreModel, table=True):
    __tablename__ = "queued_orders"
    __table_args__ = (
        one_of("status", QueuedOrderStatus),
        Index(None, "game_id", "status", "position"),
    )

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="games.id", ondelete="CASCADE", sa_type=String(32))
    position: int
    # None: entered by the game master (`pbem gm order`), not sent by email.
    inbound_id: int | None = Field(default=None, foreign_key="inbound.id", ondelete="CASCADE")
    lines: str = Field(sa_type=Text)
    created_at: datetime = Field(default_factory=utc_now, sa_type=UtcDateTime)
    status: QueuedOrderStatus = Field(default="waiting", sa_type=String(16))
    reason: str = Field(default="", sa_type=Text)


class OutboxRow(StoreModel, table=True):
    __tablename__ = "outbox"
    __table_args__ = (
        one_of("status", OutboxStatus),
        Index(None, "status", "next_attempt_at"),
        Index(None, "sent_at"),  # counting what went out in the last minute and day
    )

    id: int | None = Field(default=None, primary_key=True)
    message_id: str = Field(unique=True, sa_type=Text)
    game_id: str | None = Field(
        default=None, foreign_key="games.id", ondelete="SET NULL", sa_type=String(32)
    )
    to_address: str = Field(sa_type=String(320))
    kind: str = Field(sa_type=String(32))
    raw: bytes = Field(sa_type=LargeBinary)
    created_at: datetime = Field(default_factory=utc_now, sa_type=UtcDateTime)
    status: OutboxStatus = Field(default="pending", sa_type=String(16))
    attempts: int = 0
    next_attempt_at: datetime = Field(default_factory=utc_now, sa_type=UtcDateTime)
    last_error: str | None = Field(default=None, sa_type=Text)
    sent_at: datetime | None = Field(default=None, sa_type=UtcDateTime)


class MailStateRow(StoreModel, table=True):
    """Small facts the mail transport must remember, e.g. each IMAP folder's UIDVALIDITY."""

    __tablename__ = "mail_state"

    key: str = Field(primary_key=True, sa_type=String(200))
    value: str = Field(sa_type=Text)


class CounterRow(StoreModel, table=True):
    """Named sequences, e.g. one per game for short game ids (`sm-12`)."""

    __tablename__ = "counters"

    name: str = Field(primary_key=True, sa_type=String(64))
    value: int = 0


class DaemonStatusRow(StoreModel, table=True):
    """What each daemon (by `pbem run --name`) last saw of its mail servers, for `pbem status`.

    Per server (`imap_`, `smtp_`): the last successful contact, the problem since (if any),
    whether only a person can cure it (a refused login, a certificate), how many attempts in a
    row failed, when the next one is due, and when the game master was told of this problem.
    """

    __tablename__ = "daemon_status"

    name: str = Field(primary_key=True, sa_type=String(40))
    started_at: datetime = Field(default_factory=utc_now, sa_type=UtcDateTime)
    beat_at: datetime = Field(default_factory=utc_now, sa_type=UtcDateTime)
    """The end of the daemon's last cycle; it cycles at least every `wait_seconds`."""
    wait_seconds: float = 300.0
    stopped_at: datetime | None = Field(default=None, sa_type=UtcDateTime)
    imap_ok_at: datetime | None = Field(default=None, sa_type=UtcDateTime)
    imap_problem: str | None = Field(default=None, sa_type=Text)
    imap_needs_person: bool = False
    imap_failures: int = 0
    imap_retry_at: datetime | None = Field(default=None, sa_type=UtcDateTime)
    imap_told_at: datetime | None = Field(default=None, sa_type=UtcDateTime)
    smtp_ok_at: datetime | None = Field(default=None, sa_type=UtcDateTime)
    smtp_problem: str | None = Field(default=None, sa_type=Text)
    smtp_needs_person: bool = False
    smtp_failures: int = 0
    smtp_retry_at: datetime | None = Field(default=None, sa_type=UtcDateTime)
    smtp_told_at: datetime | None = Field(default=None, sa_type=UtcDateTime)
