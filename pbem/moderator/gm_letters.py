"""The game master's letters: a notice to people, a fresh status to seats (and the public one
to watchers). Each opens with what the game master did and closes with why; the goodbye to an
address that no longer plays is `former.goodbye`.

Each override heads its letters' subjects with what it did ("Deadline changed", "Game moved
back", "Orders entered for Bo"), to players and watchers alike: play-testing found every one
headed "The game master changed the game", which said nothing. That stays the fallback.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pbem.games.base import Event
from pbem.moderator.desk import Desk
from pbem.moderator.events import GmReason
from pbem.moderator.letters import notice_letter, status_letter
from pbem.moderator.loaded import LoadedGame
from pbem.moderator.telling import tell_game
from pbem.moderator.watchers import tell_watchers
from pbem.store.tables import SeatRow

CHANGED = "The game master changed the game"  # for a change with no headline of its own
RESENT = "Your status again"
MOVED_BACK = "Game moved back"  # the phase or turn it went back to follows in the subject
DEADLINE_CHANGED = "Deadline changed"
DEADLINE_REMOVED = "Deadline removed"

# A subject's headline as one reader reads it: `reader` is their seat, None for a watcher.
Headline = Callable[[int | None], str]


def about(game: LoadedGame, seat: int, yours: str, theirs: str) -> Headline:
    """A headline about one player: `yours` to that player ("Your money changed"), `theirs`
    with the player's name for `{}` to everyone else ("Bo's money changed")."""
    name = game.name_of(seat)
    return lambda reader: yours if reader == seat else theirs.format(name)


def _read_by(words: str | Headline | None, reader: int | None) -> str | None:
    return words(reader) if callable(words) else words


def tell_notice(
    desk: Desk,
    game: LoadedGame,
    seats: Sequence[SeatRow],
    events: Sequence[Event],
    why: str | None,
    words: str | Headline | None = CHANGED,
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
                words=_read_by(words, seat.position),
                lines=lines,
                why=why,
                kind="gm",
            ),
            game.id,
        )


def tell_status(
    desk: Desk,
    game: LoadedGame,
    seats: Sequence[SeatRow],
    events: Sequence[Event],
    why: str | None,
    words: str | Headline = CHANGED,
) -> None:
    """A fresh status to each of `seats`, opening with what the game master changed and why;
    `words` head its subject."""
    told = [*events, *([GmReason(why)] if why else [])]
    for seat in seats:
        headline = _read_by(words, seat.position)
        desk.postman.post(
            status_letter(game, seat.position, desk.settings, told, headline), game.id
        )


def tell_everyone(
    desk: Desk,
    game: LoadedGame,
    events: Sequence[Event],
    why: str | None,
    words: str | Headline = CHANGED,
) -> None:
    """A fresh status to every seat, and the public one to every watcher, opening with what the
    game master changed and why: the game moved, as after a turn. `words` head their subjects,
    the watchers' as the players'."""
    tell_status(desk, game, game.seats, events, why, words)
    told = [*events, *([GmReason(why)] if why else [])]
    tell_watchers(desk, game, told, _read_by(words, None))
