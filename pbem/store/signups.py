"""Sign-up: games opened for players to join by email before they start (pbem/moderator/signup.py).

A sign-up takes its game's id when it is opened (`bt-3`), so the join address and the game that
starts from it share one id. Its players are kept in the order they joined, which becomes the
order of the seats.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Literal

from sqlalchemy import Index, String, Text, UniqueConstraint, false
from sqlmodel import Field, Session, col, select

from pbem.store.tables import AwayMode, DeadlinePolicy, Press, StoreModel, one_of
from pbem.store.types import UtcDateTime, utc_now

SignupStatus = Literal["open", "started", "closed"]


class SignupRow(StoreModel, table=True):
    __tablename__ = "signups"
    __table_args__ = (
        one_of("status", SignupStatus),
        one_of("policy", DeadlinePolicy),
        one_of("press", Press),
        one_of("away_mode", AwayMode),
        Index(None, "status", "start_at"),
    )

    id: str = Field(primary_key=True, sa_type=String(32))  # the game's id once it starts
    game: str = Field(sa_type=String(32))
    variant: str = Field(sa_type=String(32))
    min_seats: int
    max_seats: int
    deadline_hours: float | None = None
    policy: DeadlinePolicy = Field(default="wait", sa_type=String(16))
    # None: the game starts when full; else at this time with the seats taken.
    start_at: datetime | None = Field(default=None, sa_type=UtcDateTime)
    fill_with_bots: bool = False
    # The game's table once it starts (`pbem open --private --press --away --max-away-days`).
    private: bool = Field(default=False, sa_column_kwargs={"server_default": false()})
    press: Press = Field(default="all", sa_type=String(16))
    away_mode: AwayMode = Field(default="default", sa_type=String(16))
    max_away_days: int = 14  # pbem.moderator.absences.MAX_AWAY_DAYS
    status: SignupStatus = Field(default="open", sa_type=String(16))
    created_at: datetime = Field(default_factory=utc_now, sa_type=UtcDateTime)
    # How the sign-up ended: when, by whom ("full", "date", "gm") and the game master's why.
    ended_at: datetime | None = Field(default=None, sa_type=UtcDateTime)
    ended_by: str | None = Field(default=None, sa_type=String(16))
    why: str | None = Field(default=None, sa_type=Text)
    # When the game master was told that the start date came with too few players (told once).
    short_told_at: datetime | None = Field(default=None, sa_type=UtcDateTime)


class SignupPlayerRow(StoreModel, table=True):
    __tablename__ = "signup_players"
    # The (signup_id, address) unique index also serves every "players of a sign-up" query.
    __table_args__ = (UniqueConstraint("signup_id", "address"),)

    id: int | None = Field(default=None, primary_key=True)
    signup_id: str = Field(foreign_key="signups.id", ondelete="CASCADE", sa_type=String(32))
    address: str = Field(sa_type=String(320))  # lower-cased
    name: str | None = Field(default=None, sa_type=String(200))
    joined_at: datetime = Field(default_factory=utc_now, sa_type=UtcDateTime)


def lock_signup(session: Session, signup_id: str) -> SignupRow | None:
    """The sign-up, locked until the transaction ends (PostgreSQL), freshly read; None if none."""
    statement = (
        select(SignupRow)
        .where(col(SignupRow.id) == signup_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    return session.exec(statement).first()


def signup_players(session: Session, signup_id: str) -> Sequence[SignupPlayerRow]:
    """The players signed up, in the order they joined (the order of the seats)."""
    statement = (
        select(SignupPlayerRow)
        .where(col(SignupPlayerRow.signup_id) == signup_id)
        .order_by(col(SignupPlayerRow.id))
    )
    return session.exec(statement).all()


def signups_with_status(session: Session, status: SignupStatus) -> Sequence[SignupRow]:
    statement = (
        select(SignupRow).where(col(SignupRow.status) == status).order_by(col(SignupRow.created_at))
    )
    return session.exec(statement).all()


def signups_due(session: Session, now: datetime) -> Sequence[SignupRow]:
    """Open sign-ups whose start date has come."""
    statement = (
        select(SignupRow)
        .where(col(SignupRow.status) == "open")
        .where(col(SignupRow.start_at) <= now)
        .order_by(col(SignupRow.start_at))
    )
    return session.exec(statement).all()
