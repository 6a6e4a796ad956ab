"""The game master's letters: a notice to people, a fresh status to seats, a farewell to an
address that no longer plays. Each opens with what the game master did and closes with why."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.games.base import Event
from pbem.moderator.desk import Desk
from pbem.moderator.events import GmReason
from pbem.moderator.letters import notice_letter, status_letter
from pbem.moderator.loaded import LoadedGame
from pbem.moderator.telling import tell_game
from pbem.moderator.watchers import tell_watchers
from pbem.store.tables import SeatRow

CHANGED = "The game master changed the game"
RESENT = "Your status again"


def tell_notice(
    desk: Desk,
    game: LoadedGame,
    seats: Sequence[SeatRow],
    events: Sequence[Event],
    why: str | None,
    words: str | None = CHANGED,
) -> None:
    """A short notice to the people among `seats` (computer players read only status mail),
    each told the events in their own words; `words` head its subject (None: the phase alone,
    as "Game paused" is)."""
    for seat in seats:
        lines = tell_game(game, events, seat.position)
        if seat.kind != "human" or not lines:
            continue
        desk.postman.post(
            notice_letter(
                to=seat.address,
                game=game,
                seat=seat.position,
                settings=desk.settings,
                words=words,
                lines=lines,
                why=why,
                kind="gm",
            ),
            game.id,
        )


def farewell(desk: Desk, game: LoadedGame, address: str, line: str, why: str | None) -> None:
    """To an address that no longer holds a seat: why, and that its mail no longer counts."""
    desk.postman.post(
        notice_letter(
            to=address,
            game=game,
            seat=None,
            settings=desk.settings,
            words="You no longer play in this game",
            lines=[line, "Mail from you no longer counts as orders in this game."],
            why=why,
            kind="gm",
            phase=False,  # "· Bo's turn" means nothing to someone who has left (play-testing)
        ),
        game.id,
    )


def tell_status(
    desk: Desk,
    game: LoadedGame,
    seats: Sequence[SeatRow],
    events: Sequence[Event],
    why: str | None,
    words: str = CHANGED,
) -> None:
    """A fresh status to each of `seats`, opening with what the game master changed and why;
    `words` head its subject."""
    told = [*events, *([GmReason(why)] if why else [])]
    for seat in seats:
        desk.postman.post(status_letter(game, seat.position, desk.settings, told, words), game.id)


def tell_everyone(desk: Desk, game: LoadedGame, events: Sequence[Event], why: str | None) -> None:
    """A fresh status to every seat, and the public one to every watcher, opening with what the
    game master changed and why: the game moved, as after a turn."""
    tell_status(desk, game, game.seats, events, why)
    tell_watchers(desk, game, [*events, *([GmReason(why)] if why else [])], CHANGED)
