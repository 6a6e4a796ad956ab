"""A game's former players: addresses that held a seat until it changed hands (`gm replace`,
`gm remove`, RESIGN). What they are told when they leave, when they write again, and (those who
resigned) at the end. Nothing private of the seat they left: it is someone else's now.

Their old reply address carries a password that is no longer the seat's, so their mail is told
that they no longer play, not that they mistyped a password. No table keeps who held a seat
when (the history names no address a seat changed from), so two records tell it: the outbox
shows the address was sent a seat's status by the game, and the last letter the game sent it as
a player (the goodbye of `gm replace` and `gm remove`, the answer to its RESIGN) follows the
history entry in which its seat changed hands, in the same transaction.

None of these letters starts with the mark line (`letters._letter`, `former`): nobody leaving
or gone can order, and their mail is never read as orders, whatever it quotes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from sqlmodel import Session, col, func, select

from pbem.games.base import Event
from pbem.games.event_codec import decode_events
from pbem.moderator.absences import listed
from pbem.moderator.addresses import bare
from pbem.moderator.desk import Desk
from pbem.moderator.events import SeatLeft, SeatMoved
from pbem.moderator.letters import final_standings, notice_letter, watch_letter
from pbem.moderator.loaded import LoadedGame, load_game
from pbem.moderator.telling import scene_of
from pbem.orders.incoming import IncomingEmail
from pbem.store import HistoryRow, OutboxRow, get_game, seat_by_address, watchers_of

Departure = Literal["replaced", "removed", "resigned"]
# The outbox kinds of letters to a seat's holder; a watcher's and a stranger's are not among them.
_PLAYERS_KINDS = ("status", "reply", "gm")
_TOLD = {
    "replaced": "the game master gave your seat to another player on {on}",
    "removed": "the game master removed you from the game on {on}; a computer player plays "
    "your seat",
    "resigned": "you resigned on {on}; a computer player plays your seat",
}
# The subject of a letter to someone who no longer plays: no phase ("· Bo's turn" means
# nothing to them, play-testing), nor an echo of the subject they answered.
GONE = "You no longer play in this game"
# The outbox kind of the final result sent to a player who resigned.
RESULT_KIND = "former"


@dataclass(frozen=True)
class Former:
    """How and when the address stopped playing in the game."""

    game_id: str
    how: Departure
    on: str  # "2026-12-03"


def former_player(session: Session, game_id: str | None, address: str) -> Former | None:
    """How `address` left game `game_id`, or None: it holds a seat there now, never held one,
    or the game is unknown."""
    game = get_game(session, game_id) if game_id else None
    if game is None or seat_by_address(session, game.id, address) is not None:
        return None
    letters = (
        select(func.max(OutboxRow.created_at))
        .where(col(OutboxRow.game_id) == game.id)
        .where(func.lower(OutboxRow.to_address) == address.lower())
    )
    if session.exec(letters.where(col(OutboxRow.kind) == "status")).one() is None:
        return None  # never sent a seat's status: never a player of this game
    last: datetime | None = session.exec(
        letters.where(col(OutboxRow.kind).in_(_PLAYERS_KINDS))
    ).one()
    change = session.exec(
        select(HistoryRow)
        .where(col(HistoryRow.game_id) == game.id)
        .where(col(HistoryRow.at) <= last)
        .where(col(HistoryRow.events).contains("moderator.seat_"))
        .order_by(col(HistoryRow.seq).desc())
        .limit(1)
    ).first()
    events = decode_events(change.events) if change is not None and change.events else []
    event = next((e for e in events if isinstance(e, SeatLeft | SeatMoved)), None)
    if change is None or event is None:
        return None
    how: Departure = (
        "replaced" if isinstance(event, SeatMoved) else "removed" if event.removed else "resigned"
    )
    return Former(game.id, how, change.at.strftime("%Y-%m-%d"))


def answer_former(desk: Desk, email: IncomingEmail, former: Former) -> None:
    """The answer to mail from a former player (whatever it asked: STATUS, orders): that they no
    longer play, how and since when, and where the game stands, in a letter of the game's own
    (play-testing: the subject echoed theirs, `Re: [sm-1] ... · Ann's turn`, and a finished
    game's answer said nothing of its end)."""
    assert email.sender is not None
    game = load_game(desk.session, former.game_id)
    lines = [
        f"This is the play-by-email moderator. You no longer play in {game.id}: "
        f"{_TOLD[former.how].format(on=former.on)}.",
        "Mail from you no longer counts as orders in this game, so nothing was done.",
        *where_it_stands(desk, game, bare(email.sender)),
    ]
    letter = notice_letter(
        to=email.sender,
        game=game,
        seat=None,
        settings=desk.settings,
        words=GONE,
        lines=lines,
        kind="stranger",  # counted among the answers to strangers, a few an hour
        in_reply_to=email.message_id,
        phase=False,
        former=True,
    )
    desk.postman.post(letter, None)


def goodbye(desk: Desk, game: LoadedGame, address: str, line: str, why: str | None) -> None:
    """To the person whose seat the game master gave away or took (`gm replace`, `gm remove`):
    why, that their mail no longer counts, and how to follow the game. Theirs alone: the seat's
    next holder, a computer player included, is told nothing of it."""
    desk.postman.post(
        notice_letter(
            to=address,
            game=game,
            seat=None,
            settings=desk.settings,
            words=GONE,
            lines=[
                line,
                "Mail from you no longer counts as orders in this game.",
                *where_it_stands(desk, game, address, told_on=False),
            ],
            why=why,
            kind="gm",  # the last letter to the address as a player (`former_player`)
            phase=False,
            former=True,
        ),
        game.id,
    )


def where_it_stands(desk: Desk, game: LoadedGame, address: str, told_on: bool = True) -> list[str]:
    """Where the game stands, as anyone may know it, for a former player: over (who won, and how
    to get the whole game), or going on (whose turn or which phase, unless `told_on` is False,
    and how to WATCH it, where the game takes watchers). No line starts with a request word
    (WATCH, ARCHIVE): these letters have no mark line, and one pasted under an email to the
    moderator's bare address must not ask for anything."""
    moderator = desk.settings.address
    if game.engine.is_over(game.state):
        return [
            f"Game {game.id} is over: {_winners(game)}.",
            f"For the whole game, move by move, write ARCHIVE {game.id} to {moderator}: the "
            "answer brings its public page.",
        ]
    where = game.kind.where(game.state, list(scene_of(game).names))
    paused = "; the game master has paused it" if game.row.status == "paused" else ""
    lines = [f"Game {game.id} goes on ({where}{paused})."] if told_on else []
    if game.row.private:  # it takes no watchers: no word of watching
        return lines
    if address.lower() in watchers_of(desk.session, game.id):
        return [*lines, "You watch it: its public status comes to you as it goes on."]
    return [
        *lines,
        f"To follow it without playing, write WATCH {game.id} to {moderator}: you will get "
        "its public status as it goes on, and the final result.",
    ]


def _winners(game: LoadedGame) -> str:
    """ "Ann won with 34 points", or who shared first place."""
    first = [place for place in final_standings(game) if place.place == 1]
    if not first:
        return "it has ended"
    points = f"{first[0].points} point{'' if first[0].points == 1 else 's'}"
    if len(first) == 1:
        return f"{first[0].name} won with {points}"
    return f"{listed([place.name for place in first])} shared first place with {points} each"


def tell_resigned(desk: Desk, game: LoadedGame, events: Sequence[Event]) -> None:
    """The final result, as a watcher reads it, to each person who resigned from the game and
    neither plays nor watches it now (those get theirs as such): who leaves a game by choice
    still wants to know who won (play-testing). Not to those the game master replaced or
    removed, who did not choose to go (often they had stopped answering): their goodbye said
    how to WATCH the game, which brings the result, and ARCHIVE gets it any time."""
    seated = {seat.address.lower() for seat in game.seats}
    watching = set(watchers_of(desk.session, game.id))
    for address, on in resigned(desk.session, game.id).items():
        if address in seated or address in watching:
            continue
        lines = [
            f"You left game {game.id} on {on}. It is over now, and this is how it ended, as "
            "anyone watching it reads it.",
            f"For the whole game, move by move, write ARCHIVE {game.id} to "
            f"{desk.settings.address}: the answer brings its public page.",
        ]
        letter = watch_letter(
            game, address, desk.settings, events, lines=lines, kind=RESULT_KIND, former=True
        )
        desk.postman.post(letter, game.id)


def resigned(session: Session, game_id: str) -> dict[str, str]:
    """Each address that resigned a seat of the game (its RESIGN is its own history entry, its
    actor the address), with the day it did, the latest if more than once."""
    entries = session.exec(
        select(HistoryRow)
        .where(col(HistoryRow.game_id) == game_id)
        .where(col(HistoryRow.kind) == "order")
        .where(col(HistoryRow.events).contains(SeatLeft.kind))
        .order_by(col(HistoryRow.seq))
    ).all()
    return {
        entry.actor.lower(): entry.at.strftime("%Y-%m-%d")
        for entry in entries
        if entry.events
        and any(
            isinstance(event, SeatLeft) and not event.removed
            for event in decode_events(entry.events)
        )
    }
