"""`pbem replay`: a transcript (REPLAY.md) played through the path a real email takes.

Each email is built as the player's mail client would build a reply to the newest email the
moderator sent that player (the seat's plus-address, that email's subject), handled by the
moderator in its own transaction, and answered into the outbox. Only the transport is local.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from typing import Any

import yaml
from sqlalchemy import func
from sqlmodel import Session, col, select

from pbem.cli.gm_entries import GmEntryError, run_gm_entry
from pbem.moderator.addresses import reply_address
from pbem.moderator.bots import answer_bot_mail
from pbem.moderator.desk import Desk
from pbem.moderator.inbound import handle_inbound
from pbem.moderator.letters import reply_subject
from pbem.moderator.loaded import LoadedGame, load_game
from pbem.moderator.results import standings
from pbem.moderator.start import GameRequest, PlayerSpec, StartError, start_game
from pbem.orders.incoming import read_email
from pbem.settings import Settings
from pbem.store import OutboxRow, open_database, session_scope, utc_now

SETUP_KEYS = {"showmanager": {"deck"}, "bigtime": {"deals", "opinion", "reviews"}}
TOP_KEYS = {"game", "variant", "seed", "players", "first_player", "setup", "messages", "expect"}


class TranscriptError(ValueError):
    """A transcript that does not follow REPLAY.md; the message says where."""


@dataclass
class ReplayResult:
    summary: dict[str, Any]
    mismatches: list[str] = field(default_factory=list)


def load_transcript(path: Path) -> dict[str, Any]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise TranscriptError(f"{path}: cannot read it: {exc.strerror}") from exc
    except yaml.YAMLError as exc:
        raise TranscriptError(f"{path}: not YAML or JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise TranscriptError(f"{path}: a transcript is a mapping with game, players, messages")
    unknown = set(data) - TOP_KEYS
    if unknown:
        raise TranscriptError(f"{path}: unknown keys {sorted(unknown)}")
    game = data.get("game")
    if game not in SETUP_KEYS:
        raise TranscriptError(f"{path}: game must be showmanager or bigtime, not {game!r}")
    wrong = set(data.get("setup") or {}) - SETUP_KEYS[game]
    if wrong:
        raise TranscriptError(f"{path}: setup keys {sorted(wrong)} do not belong to {game}")
    return data


class Replayer:
    """A game in a database of its own, fed emails and GM commands as a transcript lists them."""

    def __init__(
        self,
        data: dict[str, Any],
        database_url: str = "sqlite://",
        settings: Settings | None = None,
    ) -> None:
        self.settings = settings or Settings(database_url=database_url)
        self.engine = open_database(database_url)
        try:
            request = _request(data)
            with session_scope(self.engine) as session:
                self.game_id = start_game(Desk(session, self.settings), request).id
        except (StartError, KeyError, TypeError, ValueError) as exc:
            raise TranscriptError(f"the game cannot start: {exc}") from exc
        self.sent = 0
        # REPLAY.md keys a seat by the transcript's address for it, also once a computer player
        # holds it (the seat then has an address of its own at bots.invalid).
        self.keys = [player.address for player in request.players]

    def send(self, entry: dict[str, Any]) -> str:
        """Handle one transcript email; returns the inbound status ("rejected", ...)."""
        raw = self._email(entry)
        with session_scope(self.engine) as session:
            result = handle_inbound(Desk(session, self.settings), raw, f"replay:{self.sent}")
        self.sent += 1
        self.computer_players()
        return str(result.status)

    def gm(self, command: str) -> None:
        """Carry out a `gm:` entry in its own transaction; a malformed one is a TranscriptError."""
        try:
            with session_scope(self.engine) as session:
                run_gm_entry(Desk(session, self.settings), self.game_id, command)
        except GmEntryError as exc:
            raise TranscriptError(str(exc)) from exc
        with Session(self.engine) as session:
            for seat in self.game(session).seats:
                if seat.kind == "human":  # `gm replace`: the transcript names the new address
                    self.keys[seat.position] = seat.address
        self.computer_players()

    def computer_players(self) -> None:
        """Every seat the computer plays acts as soon as it is its turn, as in the daemon."""
        answer_bot_mail(self.engine, self.settings, utc_now)

    def game(self, session: Session) -> LoadedGame:
        return load_game(session, self.game_id)

    def summary(self, rejected: list[int]) -> dict[str, Any]:
        with Session(self.engine) as session:
            game = self.game(session)
            replies = session.exec(select(func.count()).select_from(OutboxRow)).one()
            return {
                "game": game.row.game,
                "variant": game.row.variant,
                **standings(game, self.keys),
                "rejected": rejected,
                "replies": replies,
            }

    def _email(self, entry: dict[str, Any]) -> bytes:
        """The email a player's client would send replying to the newest email the moderator
        sent them (whatever it was: every email names the game's current phase)."""
        sender = str(entry["from"])
        with Session(self.engine) as session:
            game = self.game(session)
            seat = next((s for s in game.seats if s.address.lower() == sender.lower()), None)
            to = (
                reply_address(self.settings.address, self.game_id, seat.secret)
                if seat
                else self.settings.address
            )
            latest = session.exec(
                select(OutboxRow.raw)
                .where(col(OutboxRow.to_address) == sender)
                .order_by(col(OutboxRow.id).desc())
            ).first()
        subject = entry.get("subject")
        answered = read_email(latest) if latest is not None else None
        if subject is None and answered is not None:
            subject = reply_subject(answered.subject)
        message = EmailMessage()
        message["From"] = sender
        message["To"] = to
        message["Subject"] = subject or f"[{self.game_id}] orders"
        message["Message-ID"] = make_msgid(idstring=f"replay{self.sent}", domain="replay.invalid")
        if answered is not None and answered.message_id:
            message["In-Reply-To"] = answered.message_id
        if entry.get("html"):
            message.set_content(str(entry["html"]), subtype="html")
        else:
            message.set_content(str(entry.get("body", "")))
        return message.as_bytes()


def _request(data: dict[str, Any]) -> GameRequest:
    players = [PlayerSpec(str(p["email"]), p.get("name")) for p in data.get("players") or []]
    seats = {p.address.lower(): i for i, p in enumerate(players)}
    setup = dict(data.get("setup") or {})
    if "reviews" in setup:
        setup["reviews"] = {seats[str(k).lower()]: v for k, v in setup["reviews"].items()}
    return GameRequest(
        game=data["game"],
        players=tuple(players),
        variant=data.get("variant", "standard"),
        seed=int(data.get("seed", 0)),
        first_player=data.get("first_player"),
        setup=setup,
    )


def replay(path: Path, database_url: str = "sqlite://") -> ReplayResult:
    data = load_transcript(path)
    replayer = Replayer(data, database_url)
    rejected: list[int] = []
    for index, entry in enumerate(data.get("messages") or []):
        if "gm" in entry:
            replayer.gm(str(entry["gm"]))
        elif replayer.send(entry) == "rejected":
            rejected.append(index)
    summary = replayer.summary(rejected)
    return ReplayResult(summary, _compare(summary, data.get("expect") or {}))


def _compare(summary: dict[str, Any], expect: dict[str, Any]) -> list[str]:
    mismatches = []
    for key, wanted in expect.items():
        if key not in summary:
            mismatches.append(f"expect.{key}: no such result (known: {', '.join(summary)})")
        elif summary[key] != wanted:
            mismatches.append(f"expect.{key}: wanted {wanted!r}, got {summary[key]!r}")
    return mismatches
