"""The archive's public page: one self-contained HTML file (styles inline, nothing fetched)
with the final standings, then the game chapter by chapter with the board after each.

It is read like an observer reads the game: names only, never an address, the seed, a hand or a
sealed order (`public.py`); talk said to the whole table shows as speech (`chronicle.TALK`).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session

from pbem.moderator.letters import final_standings
from pbem.moderator.loaded import LoadedGame, load_game
from pbem.moderator.render import environment
from pbem.moderator.telling import scene_of
from pbem.store import GameNotFound

from .chronicle import chapters


class NotArchivable(LookupError):
    """A game that has no archive (yet): unknown, or still being played; the message says which."""


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
    """The game, if it is over; else `NotArchivable` saying why in one polite line."""
    try:
        game = load_game(session, game_id)
    except GameNotFound as exc:
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
    return (
        environment()
        .get_template("archive.html.j2")
        .render(
            title=f"{game.kind.title} {game.id}",
            game=game.row.game,
            variant=game.row.variant,
            players=scene.names,
            started=game.row.created_at.strftime("%Y-%m-%d"),
            ended=game.row.updated_at.strftime("%Y-%m-%d"),
            winner=None if outcome.winner is None else scene.names[outcome.winner],
            standings=lines,
            chapters=chapters(session, game),
        )
    )
