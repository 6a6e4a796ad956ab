"""The letters the moderator writes, rendered from templates with only what the reader may see."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pbem.games.base import Event
from pbem.moderator.addresses import reply_address
from pbem.moderator.compose import Letter
from pbem.moderator.loaded import LoadedGame
from pbem.moderator.render import render
from pbem.moderator.telling import tell_game
from pbem.settings import Settings


@dataclass(frozen=True)
class HistoryLine:
    """One history entry as a player may read it."""

    seq: int
    at: str
    actor: str
    summary: str
    why: str | None


def subject(game_id: str | None, words: str) -> str:
    return f"[{game_id}] {words}" if game_id else words


def _deadline(game: LoadedGame) -> str | None:
    at: datetime | None = game.row.deadline_at
    return at.strftime("%Y-%m-%d %H:%M UTC") if at else None


def status_context(game: LoadedGame, seat: int | None) -> dict[str, Any]:
    """What a status section shows `seat` (None: the game master): the view is the only source."""
    engine = game.engine
    awaiting = engine.awaiting(game.state) if game.row.status == "running" else ()
    examples = engine.legal_summary(game.state, seat) if seat in awaiting else []
    return {
        "game": game.row.game,
        "view": engine.view(game.state, seat),
        "names": game.names,
        "viewer": seat,
        "examples": examples,
        "deadline": _deadline(game),
    }


def seat_reply_to(game: LoadedGame, seat: int, settings: Settings) -> str:
    return reply_address(settings.address, game.id, game.seat(seat).secret)


def status_letter(
    game: LoadedGame,
    seat: int,
    settings: Settings,
    events: Sequence[Event],
    headline: str | None = None,
) -> Letter:
    kind = game.kind
    awaiting = game.engine.awaiting(game.state)
    subject_words = (
        "Final result"
        if game.engine.is_over(game.state)
        else kind.status_subject(game.state, seat, awaiting)
    )
    words = f"{headline} · {subject_words}" if headline else subject_words
    title = f"{kind.title} {game.id}: {words}"
    text, html = render(
        "status",
        title=title,
        game_id=game.id,
        events=tell_game(game, events, seat),
        **status_context(game, seat),
    )
    return Letter(
        to=game.seat(seat).address,
        subject=subject(game.id, words),
        text=text,
        html=html,
        kind="status",
        reply_to=seat_reply_to(game, seat, settings),
    )


def reply_letter(
    *,
    to: str,
    game: LoadedGame | None,
    seat: int | None,
    settings: Settings,
    about: str,
    verdict: str,
    accepted: Sequence[str] = (),
    ignored: Sequence[str] = (),
    problems: Sequence[str] = (),
    notes: Sequence[str] = (),
    events: Sequence[Event] = (),
    show_status: bool = False,
    help_text: str | None = None,
    history: Sequence[HistoryLine] = (),
    in_reply_to: str | None = None,
) -> Letter:
    """The answer to one email from a person: what was carried out, refused and ignored, and
    what its commands asked for (HELP, HISTORY, STATUS)."""
    game_id = game.id if game else None
    context: dict[str, Any] = {"view": None, "examples": [], "deadline": None}
    if game is not None and show_status:
        context = status_context(game, seat)
    title = f"Re: {about}"
    text, html = render(
        "reply",
        title=title,
        game_id=game_id,
        verdict=verdict,
        accepted=list(accepted),
        ignored=list(ignored),
        problems=list(problems),
        notes=list(notes),
        events=tell_game(game, events, seat) if game else [],
        help=help_text,
        history=list(history),
        **context,
    )
    reply_to = seat_reply_to(game, seat, settings) if game and seat is not None else None
    return Letter(
        to=to,
        subject=subject(game_id, title) if game_id and f"[{game_id}]" not in about else title,
        text=text,
        html=html,
        kind="reply",
        reply_to=reply_to,
        in_reply_to=in_reply_to,
    )


def notice_letter(
    *,
    to: str,
    game: LoadedGame | None,
    seat: int | None,
    settings: Settings,
    words: str,
    lines: Sequence[str],
    kind: str = "notice",
    why: str | None = None,
    help_text: str | None = None,
    in_reply_to: str | None = None,
) -> Letter:
    """A short message: a GM change, a deadline passed, a word to a stranger."""
    game_id = game.id if game else None
    title = f"{game.kind.title} {game_id}: {words}" if game else words
    text, html = render(
        "notice",
        title=title,
        game_id=game_id,
        lines=list(lines),
        why=why,
        help=help_text,
    )
    reply_to = seat_reply_to(game, seat, settings) if game and seat is not None else None
    return Letter(
        to=to,
        subject=subject(game_id, words),
        text=text,
        html=html,
        kind=kind,
        reply_to=reply_to,
        in_reply_to=in_reply_to,
    )
