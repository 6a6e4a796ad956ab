"""A moderator over a fresh database (SQLite and PostgreSQL), and helpers to mail it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from email.message import EmailMessage
from email.utils import make_msgid

import pytest
from sqlalchemy import Engine
from sqlmodel import Session, col, select

from pbem.moderator.addresses import reply_address
from pbem.moderator.desk import Desk
from pbem.moderator.inbound import InboundResult, handle_inbound
from pbem.moderator.loaded import LoadedGame, load_game
from pbem.moderator.start import GameRequest, PlayerSpec, start_game
from pbem.orders.format import order_text
from pbem.orders.incoming import read_email
from pbem.settings import Settings
from pbem.store import OutboxRow, session_scope
from tests.support.db import db_engine, db_url, postgres_admin, postgres_url

__all__ = ["db_engine", "db_url", "postgres_admin", "postgres_url"]

SETTINGS = Settings(address="pbem@example.org")
ANN, BO, CY = "ann@example.org", "bo@example.org", "cy@example.org"


class Table:
    """One game on the test database, with ways to mail it and read what it sent."""

    def __init__(
        self,
        engine: Engine,
        game: str,
        players: list[str],
        bots: tuple[str, ...] = (),
        **options: object,
    ) -> None:
        self.engine = engine
        specs = [PlayerSpec.parse(p) for p in players]
        specs += [PlayerSpec.computer(bot) for bot in bots]
        request = GameRequest(game=game, players=tuple(specs), **options)  # type: ignore[arg-type]
        with session_scope(engine) as session:
            self.id = start_game(Desk(session, SETTINGS), request).id

    def game(self) -> LoadedGame:
        with Session(self.engine) as session:
            return load_game(session, self.id)

    def secret(self, address: str) -> str:
        return next(s.secret for s in self.game().seats if s.address == address)

    def email(
        self,
        sender: str,
        body: str,
        *,
        subject: str | None = None,
        to: str | None = None,
        headers: dict[str, str] | None = None,
        message_id: str | None = None,
    ) -> bytes:
        message = EmailMessage()
        message["From"] = sender
        message["To"] = to or reply_address(SETTINGS.address, self.id, self.secret(sender))
        message["Subject"] = subject or self.latest_subject(sender) or "orders"
        message["Message-ID"] = message_id or make_msgid(domain="test.invalid")
        for name, value in (headers or {}).items():
            message[name] = value
        message.set_content(body)
        return message.as_bytes()

    def send(self, raw: bytes) -> InboundResult:
        with session_scope(self.engine) as session:
            return handle_inbound(Desk(session, SETTINGS), raw, "test")

    def mail(self, sender: str, body: str, **options: object) -> InboundResult:
        return self.send(self.email(sender, body, **options))  # type: ignore[arg-type]

    def outbox(self) -> list[OutboxRow]:
        with Session(self.engine) as session:
            return list(session.exec(select(OutboxRow).order_by(col(OutboxRow.id))).all())

    def play_default_turn(self) -> bool:
        """The first seat awaited sends its default orders; False once the game is over."""
        loaded = self.game()
        if loaded.engine.is_over(loaded.state):
            return False
        seat = loaded.engine.awaiting(loaded.state)[0]
        orders = order_text(loaded.engine.default_actions(loaded.state, seat))
        assert self.mail(loaded.seat(seat).address, orders).status == "accepted"
        return True

    def latest_subject(self, address: str) -> str | None:
        rows = [r for r in self.outbox() if r.to_address == address and r.kind == "status"]
        return "Re: " + read_email(rows[-1].raw).subject if rows else None


@pytest.fixture
def table(db_engine: Engine) -> Callable[..., Table]:
    def make(game: str, players: list[str], **options: object) -> Table:
        return Table(db_engine, game, players, **options)  # type: ignore[arg-type]

    return make


@pytest.fixture
def sqlite_engine(tmp_path: object) -> Iterator[Engine]:
    from pbem.store import open_database

    engine = open_database(f"sqlite:///{tmp_path}/pbem.sqlite3")
    yield engine
    engine.dispose()
