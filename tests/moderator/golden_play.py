"""A fixed sequence of games and emails whose letters are kept as a golden set: whatever changes
in how letters are rendered, composed or queued, the bytes a player receives must not.

The letters are the whole outbox (welcome, replies, status mail, notices) of a Big Time! and a
Show Manager game played for a few phases from fixed seeds and secrets, with a few emails that
go wrong on the way. Only what is random by design is normalised: the Date, the Message-ID and
the MIME boundary.

    python -m tests.moderator.golden_play      # writes tests/moderator/golden/ anew
"""

from __future__ import annotations

import hashlib
import itertools
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

from sqlalchemy import Engine
from sqlmodel import Session, col, select

from pbem.moderator.addresses import reply_address
from pbem.moderator.desk import Desk
from pbem.moderator.inbound import handle_inbound
from pbem.moderator.start import GameRequest, PlayerSpec, start_game
from pbem.orders.incoming import read_email
from pbem.settings import Settings
from pbem.store import OutboxRow, open_database, session_scope
from tests.support.letters import letter_text

GOLDEN = Path(__file__).parent / "golden"
SETTINGS = Settings(address="pbem@example.org")
GAMES = {
    "bigtime": ("ann@example.org:Ann", "bo@example.org:Bo", "cy@example.org:Cy"),
    "showmanager": ("di@example.org:Di", "ed@example.org:Ed", "flo@example.org:Flo"),
}
ORDERS_PER_GAME = 12
# Letters kept whole beside the digests, so a difference can be read: by their place in the outbox.
KEPT_WHOLE = (0, 3, 5, 8, 12, 17, 19, 23, 48)

_DATE = re.compile(rb"^Date: .*$", re.MULTILINE)
_MESSAGE_ID = re.compile(rb"^Message-ID: .*$", re.MULTILINE)
_BOUNDARY = re.compile(rb'boundary="([^"]+)"')
_EXAMPLES = re.compile(r"for example:\n((?:    .+\n)+)")
# Emails that are not plain orders, by turn: a command with a line that is no order, no orders.
SPECIAL_EMAILS = {4: "HELP\nthis is no order at all", 7: "no orders here", 9: "STATUS"}


def normalised(raw: bytes) -> bytes:
    """`raw` with its Date, Message-ID and MIME boundary replaced by fixed words."""
    raw = _DATE.sub(b"Date: (date)", raw)
    raw = _MESSAGE_ID.sub(b"Message-ID: (message-id)", raw)
    for boundary in set(_BOUNDARY.findall(raw)):
        raw = raw.replace(boundary, b"(boundary)")
    return raw


@contextmanager
def fixed_secrets() -> Iterator[None]:
    """Seat secrets from a counter instead of the random source, so reply addresses repeat."""
    counter = itertools.count()
    with mock.patch("pbem.moderator.start.new_secret", lambda taken=(): f"s{next(counter):04d}"):
        yield


def order_email(game_id: str, address: str, secret: str, subject: str, body: str, n: int) -> bytes:
    to = reply_address(SETTINGS.address, game_id, secret)
    return (
        f"From: {address}\r\nTo: {to}\r\nSubject: Re: {subject}\r\n"
        f"Message-ID: <order-{n}@players.invalid>\r\nMIME-Version: 1.0\r\n"
        f'Content-Type: text/plain; charset="utf-8"\r\n\r\n{body}\r\n'
    ).encode()


def _rows(engine: Engine) -> list[OutboxRow]:
    with Session(engine) as session:
        return list(session.exec(select(OutboxRow).order_by(col(OutboxRow.id))).all())


def _send(engine: Engine, raw: bytes) -> None:
    with session_scope(engine) as session:
        handle_inbound(Desk(session, SETTINGS), raw, "golden")


def play(engine: Engine) -> list[bytes]:
    """Plays the fixed games on `engine` (an empty, migrated database); the outbox's raw bytes."""
    numbers = itertools.count()
    with fixed_secrets():
        for seed, (game, players) in enumerate(GAMES.items(), start=3):
            request = GameRequest(
                game=game, players=tuple(PlayerSpec.parse(p) for p in players), seed=seed
            )
            with session_scope(engine) as session:
                loaded = start_game(Desk(session, SETTINGS), request)
                seats = [(seat.address, seat.secret) for seat in loaded.seats]
                game_id = loaded.id
            for turn in range(ORDERS_PER_GAME):
                address, secret, latest, example = _next_player(engine, seats, turn)
                body = SPECIAL_EMAILS.get(turn, example or "STATUS")
                subject = read_email(latest).subject
                _send(engine, order_email(game_id, address, secret, subject, body, next(numbers)))
            # From another address than the seat's: the reply goes to both.
            other = order_email(
                game_id, "also@example.org", seats[0][1], "", "STATUS", next(numbers)
            )
            _send(engine, other)
    stranger = (
        b"From: zed@example.org\r\nTo: pbem@example.org\r\nSubject: hello\r\n"
        b"Message-ID: <stranger@players.invalid>\r\n\r\nLet me play.\r\n"
    )
    _send(engine, stranger)
    return [row.raw for row in _rows(engine)]


def _next_player(
    engine: Engine, seats: list[tuple[str, str]], turn: int
) -> tuple[str, str, bytes, str | None]:
    """Who writes next: a seat asked for orders (in turn), else any; with its latest letter and
    the first example of an order that letter gives."""
    rows = _rows(engine)
    offers = []
    for address, secret in seats:
        latest = [row.raw for row in rows if row.to_address == address][-1]
        found = _EXAMPLES.search(letter_text(latest))
        examples = [line.strip() for line in found[1].splitlines()] if found else []
        # A different example each turn, so the games do not only refresh or wait.
        example = examples[turn % len(examples)] if examples else None
        offers.append((address, secret, latest, example))
    asked = [offer for offer in offers if offer[3] is not None] or offers
    return asked[turn % len(asked)]


def golden_letters() -> list[bytes]:
    """The normalised letters of the fixed games, played on a new SQLite database."""
    with tempfile.TemporaryDirectory() as folder:
        engine = open_database(f"sqlite:///{Path(folder) / 'golden.sqlite3'}")
        try:
            return [normalised(raw) for raw in play(engine)]
        finally:
            engine.dispose()


def digest(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def write_golden() -> None:
    letters = golden_letters()
    GOLDEN.mkdir(exist_ok=True)
    for old in GOLDEN.glob("*.eml"):
        old.unlink()
    (GOLDEN / "digests.txt").write_text("".join(f"{digest(raw)}\n" for raw in letters))
    for index in KEPT_WHOLE:
        (GOLDEN / f"letter-{index:02d}.eml").write_bytes(letters[index])
    print(f"{len(letters)} letters written to {GOLDEN}")


if __name__ == "__main__":
    write_golden()
