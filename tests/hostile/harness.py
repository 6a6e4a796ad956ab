"""A moderator on an in-memory SQLite database, for throwing bad and hostile mail at it.

`Moderator` starts games and hands raw bytes to `handle_inbound` exactly as the daemon does;
`GameSnapshot` is everything an email could change in a game, so "nothing changed" is one
comparison; `well_formed` parses an outbox email with the stdlib and fails on any defect or any
header the moderator does not write.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser

from sqlalchemy import Engine
from sqlmodel import Session, col, select

from pbem.moderator.addresses import reply_address
from pbem.moderator.desk import Desk
from pbem.moderator.inbound import InboundResult, handle_inbound
from pbem.moderator.start import GameRequest, PlayerSpec, start_game
from pbem.settings import Settings
from pbem.store import (
    GameRow,
    HistoryRow,
    OutboxRow,
    QueuedOrderRow,
    SeatRow,
    open_database,
    session_scope,
)

SETTINGS = Settings(address="pbem@example.org")
ANN, BO, CY = "ann@example.org", "bo@example.org", "cy@example.org"

# What compose() writes; the threading and Reply-To headers only on some letters.
ALWAYS_HEADERS = frozenset(
    {"from", "to", "subject", "date", "message-id", "auto-submitted", "precedence"}
    | {"mime-version", "content-type"}
)
OPTIONAL_HEADERS = frozenset({"reply-to", "in-reply-to", "references"})


@dataclass(frozen=True)
class GameSnapshot:
    """All an email may change in one game: state, status, seats, history and waiting orders."""

    state: str
    status: str
    seats: tuple[tuple[int, str, str, str, str], ...]  # position, address, name, secret, kind
    history: tuple[tuple[int, str, str], ...]  # seq, actor, summary
    queued: tuple[tuple[int, str, str], ...]  # position, lines, status


class Moderator:
    """The moderator over its own database, with games started on it and a view of its outbox."""

    def __init__(self, engine: Engine | None = None) -> None:
        self.engine = engine or open_database("sqlite://")

    def start(
        self, game: str = "showmanager", players: Sequence[PlayerSpec] = (), **options: object
    ) -> str:
        specs = tuple(players) or (PlayerSpec(ANN, "Ann"), PlayerSpec(BO, "Bo"))
        request = GameRequest(game=game, players=specs, **options)  # type: ignore[arg-type]
        with session_scope(self.engine) as session:
            return start_game(Desk(session, SETTINGS), request).id

    def send(self, raw: bytes, source: str = "test") -> InboundResult:
        with session_scope(self.engine) as session:
            return handle_inbound(Desk(session, SETTINGS), raw, source)

    def secret(self, game_id: str, address: str) -> str:
        with Session(self.engine) as session:
            seat = session.exec(
                select(SeatRow)
                .where(col(SeatRow.game_id) == game_id)
                .where(col(SeatRow.address) == address)
            ).one()
            return seat.secret

    def plus_address(self, game_id: str, address: str) -> str:
        return reply_address(SETTINGS.address, game_id, self.secret(game_id, address))

    def snapshot(self, game_id: str) -> GameSnapshot:
        with Session(self.engine) as session:
            game = session.get(GameRow, game_id)
            assert game is not None
            seats = session.exec(
                select(SeatRow).where(col(SeatRow.game_id) == game_id).order_by(SeatRow.position)
            ).all()
            history = session.exec(
                select(HistoryRow).where(col(HistoryRow.game_id) == game_id).order_by("seq")
            ).all()
            queued = session.exec(
                select(QueuedOrderRow)
                .where(col(QueuedOrderRow.game_id) == game_id)
                .order_by(col(QueuedOrderRow.id))
            ).all()
            return GameSnapshot(
                state=game.state,
                status=game.status,
                seats=tuple((s.position, s.address, s.name or "", s.secret, s.kind) for s in seats),
                history=tuple((h.seq, h.actor, h.summary) for h in history),
                queued=tuple((q.position, q.lines, q.status) for q in queued),
            )

    def outbox(self) -> list[OutboxRow]:
        with Session(self.engine) as session:
            return list(session.exec(select(OutboxRow).order_by(col(OutboxRow.id))).all())

    def outbox_count(self) -> int:
        return len(self.outbox())

    def sent_since(self, mark: int) -> list[OutboxRow]:
        """The outbox rows written after the first `mark` ones."""
        return self.outbox()[mark:]


def recipients(rows: Iterable[OutboxRow], kinds: Iterable[str] | None = None) -> Counter[str]:
    """How many outbox rows each address got (only rows of `kinds`, when given)."""
    wanted = set(kinds) if kinds is not None else None
    return Counter(r.to_address for r in rows if wanted is None or r.kind in wanted)


def well_formed(raw: bytes) -> EmailMessage:
    """`raw` parsed by the stdlib, failing the test on any defect or unexpected header."""
    message = BytesParser(policy=policy.default).parsebytes(raw)
    assert isinstance(message, EmailMessage)
    names = [name.lower() for name in message]
    assert len(names) == len(set(names)), f"a header written twice: {names}"
    assert set(names) >= ALWAYS_HEADERS, f"missing headers: {ALWAYS_HEADERS - set(names)}"
    assert set(names) <= ALWAYS_HEADERS | OPTIONAL_HEADERS, f"unexpected headers: {names}"
    for part in message.walk():
        assert not part.defects, f"MIME defects: {part.defects}"
        for name, value in part.items():
            assert not getattr(value, "defects", ()), f"{name} defects: {value.defects}"
    assert message.get_content_type() == "multipart/alternative"
    kinds = [part.get_content_type() for part in message.iter_parts()]
    assert kinds == ["text/plain", "text/html"]
    return message


def parts(message: EmailMessage) -> tuple[str, str]:
    """The text and HTML renderings of a well-formed outbox email."""
    text_part, html_part = list(message.iter_parts())
    assert isinstance(text_part, EmailMessage) and isinstance(html_part, EmailMessage)
    return text_part.get_content(), html_part.get_content()
