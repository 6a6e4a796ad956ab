"""The archive's public page: one self-contained HTML file (styles inline, nothing fetched)
with the final standings, then the game chapter by chapter with the board after each.

It is read like an observer reads the game: names only, never an address, the seed, a hand or a
sealed order (`public.py`); talk said to the whole table shows as speech (`chronicle.TALK`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlmodel import Session

from pbem.moderator.letters import final_standings
from pbem.moderator.loaded import LoadedGame, load_game
from pbem.moderator.render import environment
from pbem.moderator.telling import scene_of, unmarked
from pbem.store import GameNotFound, SignupRow

from .chronicle import Chapter, chapters


class NotArchivable(LookupError):
    """A game that has no archive (yet): unknown, or still being played; the message says which."""


class NotStarted(NotArchivable):
    """A game still open for sign-up: it has no board or history yet (play-testing: it was
    called "no game" while LIST offered it). `private`: its sign-up keeps it private, so a
    stranger is told of no game at all, as WATCH tells them."""

    def __init__(self, game_id: str, private: bool) -> None:
        super().__init__(f"{game_id} has not started yet: it is still open for sign-up")
        self.private = private


@dataclass(frozen=True)
class FinalLine:
    """One line of the final standings as the page shows it."""

    place: int
    name: str
    points: int
    money: int
    tie_break: str | None


def unknown_game(game_id: str) -> str:
    return f"there is no game {game_id!r}"


def finished_game(session: Session, game_id: str) -> LoadedGame:
    """The game, if it is over; else `NotArchivable` saying why in one polite line (`NotStarted`
    for a game still open for sign-up)."""
    try:
        game = load_game(session, game_id)
    except GameNotFound as exc:
        signup = session.get(SignupRow, game_id)
        if signup is not None and signup.status == "open":
            raise NotStarted(game_id, signup.private) from exc
        raise NotArchivable(unknown_game(game_id)) from exc
    if not game.engine.is_over(game.state):
        raise NotArchivable(
            f"game {game_id} is still being played; its archive is ready once it is over"
        )
    return game


def archive_page(session: Session, game: LoadedGame) -> str:
    """The public HTML page of a finished game."""
    scene = scene_of(game)
    outcome = game.engine.outcome(game.state)
    lines = [
        FinalLine(place.place, place.name, place.points, standing.money, place.ahead)
        for place, standing in zip(final_standings(game), outcome.standings, strict=True)
    ]
    told = chapters(session, game)
    return (
        environment()
        .get_template("archive.html.j2")
        .render(
            title=f"{game.kind.title} {game.id}",
            game=game.row.game,
            variant=game.row.variant,
            players=seat_holders(told),
            started=game.row.created_at.strftime("%Y-%m-%d"),
            ended=game.row.updated_at.strftime("%Y-%m-%d"),
            winner=None if outcome.winner is None else scene.names[outcome.winner],
            standings=lines,
            chapters=told,
        )
    )


def seat_holders(told: Sequence[Chapter]) -> list[str]:
    """Each seat's player as the header names them: whoever holds it at the end and, when the
    seat changed hands (`gm replace`), since which chapter and who held it before,
    "Dee (from Round 2 · Phase 1; before that Cy)". A computer player taking over a seat
    (RESIGN, `gm remove`) plays it under the same name: no new holder."""
    held = [[(name, "")] for name in told[0].names]  # per seat: (name, chapter taken over in)
    for chapter in told[1:]:
        for seat, name in enumerate(chapter.names):
            last, since = held[seat][-1]
            if unmarked(name) == unmarked(last):
                held[seat][-1] = (name, since)  # as the seat is named now ("Bo (computer)")
            else:
                held[seat].append((name, chapter.title))
    return [_holders_text(holders) for holders in held]


def _holders_text(holders: list[tuple[str, str]]) -> str:
    (name, since), earlier = holders[-1], holders[:-1]
    if not earlier:
        return name
    before = "; before that ".join(
        f"{unmarked(old)} from {began}" if began else unmarked(old)
        for old, began in reversed(earlier)
    )
    return f"{name} (from {since}; before that {before})"
