"""Table talk: SAY lines checked, kept in the game's history as events, and relayed.

Talk is never an order and changes nothing in the game. It is told from its events
(`Said`, `Whispered`), so private talk is only ever told to its sender and addressee: the
others are told nothing of it, or, in a game with public press, only that it happened. Talk
goes out with the email it came in, all or nothing: an email whose orders or talk are refused
relays nothing. Computer players are never sent talk, and talk to their seats is refused, so
nobody writes to a reader that does not read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from sqlmodel import col, select

from pbem.games.base import Event
from pbem.games.event_codec import encode_events
from pbem.moderator.desk import Desk
from pbem.moderator.events import Said, Whispered
from pbem.moderator.letters import notice_letter
from pbem.moderator.loaded import LoadedGame, encode_state
from pbem.moderator.telling import tell_game, unmarked
from pbem.orders.grammar import Talk
from pbem.orders.parse import OrderLine
from pbem.store import HistoryRow, append_history

# How much talk one player may send in a day (a rolling 24 hours), and how long one may be.
TALK_PER_DAY = 20
LONGEST_TALK = 2000
_DAY = timedelta(days=1)


@dataclass(frozen=True)
class Spoken:
    """One SAY, checked: who it goes to (None: everyone) and its words."""

    text: str
    addressee: int | None


@dataclass(frozen=True)
class CheckedTalk:
    spoken: tuple[Spoken, ...] = ()
    problems: tuple[str, ...] = ()


def check_talk(desk: Desk, game: LoadedGame, seat: int, lines: Sequence[OrderLine]) -> CheckedTalk:
    """The email's SAY lines ready to relay, or why they cannot be (each naming its line)."""
    if not lines:
        return CheckedTalk()
    if game.row.press == "none":
        return CheckedTalk(
            problems=(
                "talk is off in this game (it was started without table talk): "
                "SAY is not relayed; send the email again without it",
            )
        )
    spoken: list[Spoken] = []
    problems: list[str] = []
    for line in lines:
        assert isinstance(line.order, Talk)
        checked = _check_one(game, seat, line.order)
        if isinstance(checked, str):
            problems.append(f'line {line.number} "{line.text}": {checked}')
        else:
            spoken.append(checked)
    late = _over_the_limit(desk, game, seat, len(lines))
    return CheckedTalk(tuple(spoken), tuple([*problems, *([late] if late else [])]))


def _check_one(game: LoadedGame, seat: int, talk: Talk) -> Spoken | str:
    text = talk.text.strip()
    if not text:
        return "there is nothing to say: write the message after SAY, or between SAY and END"
    if len(text) > LONGEST_TALK:
        return f"a message may be at most {LONGEST_TALK} characters long, this one has {len(text)}"
    if talk.to is None:
        if not any(o.position != seat and o.kind == "human" for o in game.seats):
            # Like SAY TO a computer player: refused rather than said to nobody.
            return "the other players are all computer players, and they do not read talk"
        return Spoken(text, None)
    found = addressee(game, seat, talk.to)
    if isinstance(found, str):
        return found
    return Spoken(_without_name(text, game.name_of(found)), found)


def addressee(game: LoadedGame, seat: int, to: str) -> int | str:
    """The seat `to` names, by its name or first name (any case) or its number; else why not."""
    found = _named(game, to)
    humans = [
        game.name_of(other.position)
        for other in game.seats
        if other.position != seat and other.kind == "human"
    ]
    # Those the sender can talk to, not "the players": a computer player and the sender leave
    # the list looking like a game of two (play-testing).
    players = (
        f"players you can talk to: {', '.join(humans)}" if humans else "nobody else reads talk"
    )
    if len(found) > 1:
        return (
            f"there is more than one player called {to!r} to talk to"
            f"{_by_number(game, seat, found)} ({players})"
        )
    if not found:
        return f"there is no player called {to!r} to talk to ({players})"
    if found[0] == seat:
        return f"{to!r} is you: SAY TO names another player ({players})"
    if game.seat(found[0]).kind != "human":
        name = game.name_of(found[0])
        return f"{name} is a computer player and does not read talk ({players})"
    return found[0]


def _by_number(game: LoadedGame, seat: int, found: Sequence[int]) -> str:
    """How to name each player an ambiguous name may mean, by the seat number that names them
    alone (`SAY TO 2`): ": write SAY TO 2 (Ann) or SAY TO 3 (Ann Smith)"; "" for none."""
    choices = [
        f"SAY TO {other + 1} ({game.name_of(other)})"
        for other in found
        if other != seat
        and game.seat(other).kind == "human"
        and _named(game, str(other + 1)) == [other]
    ]
    return f": write {' or '.join(choices)}" if choices else ""


def _named(game: LoadedGame, to: str) -> list[int]:
    """Every seat `to` may name: by its number, its name or its first name, in any case."""
    wanted = to.casefold()
    numbered = int(to) - 1 if to.isascii() and to.isdigit() else None
    return [
        other.position
        for other in game.seats
        if other.position == numbered
        # With its computer-player mark or without: `SAY TO Robby` finds "Robby (computer)", and
        # "Robby (bot)" of a game started before.
        or wanted in _spellings(game.name_of(other.position))
        or game.name_of(other.position).split()[0].casefold() == wanted
    ]


def _spellings(name: str) -> tuple[str, str]:
    return name.casefold(), unmarked(name).casefold()


def _without_name(text: str, name: str) -> str:
    """`SAY TO Ann Lee hello` for the player Ann Lee: the rest of the name is not the message."""
    rest = name.split()[1:]
    words = text.split(maxsplit=len(rest))
    if rest and [word.casefold() for word in words[: len(rest)]] == [w.casefold() for w in rest]:
        return words[len(rest)] if len(words) > len(rest) else ""
    return text


def _over_the_limit(desk: Desk, game: LoadedGame, seat: int, count: int) -> str | None:
    """Why `count` more messages are too many today, and when the next one may be sent."""
    now = desk.clock()
    sent = list(
        desk.session.exec(
            select(HistoryRow.at)
            .where(col(HistoryRow.game_id) == game.id)
            .where(col(HistoryRow.kind) == "talk")
            .where(col(HistoryRow.actor) == game.seat(seat).address)
            .where(col(HistoryRow.at) > now - _DAY)
            .order_by(col(HistoryRow.at))
        ).all()
    )
    too_many = len(sent) + count - TALK_PER_DAY
    if too_many <= 0:
        return None
    if count > TALK_PER_DAY:
        return f"at most {TALK_PER_DAY} messages a day may be sent; this email has {count}"
    when = (sent[too_many - 1] + _DAY).strftime("%Y-%m-%d %H:%M UTC")
    return (
        f"you have sent {len(sent)} messages in the last 24 hours, and at most {TALK_PER_DAY} "
        f"may be sent a day: {'the next' if count == 1 else f'these {count}'} may be sent "
        f"from {when}"
    )


def record_talk(
    desk: Desk, game: LoadedGame, seat: int, spoken: Sequence[Spoken], inbound_id: int | None
) -> list[Event]:
    """Each message as a history entry of its own (what the daily limit counts); its events."""
    told: list[Event] = []
    name = game.name_of(seat)
    for said in spoken:
        events = _events(game, seat, said)
        to = "everyone" if said.addressee is None else game.name_of(said.addressee)
        append_history(
            desk.session,
            game.id,
            actor=game.seat(seat).address,
            kind="talk",
            summary=f"{name} to {to}: {said.text}",
            inbound_id=inbound_id,
            at=desk.clock(),
            state_after=encode_state(game, game.state),
            events=encode_events(events),
        )
        told += events
    return told


def _events(game: LoadedGame, seat: int, said: Spoken) -> list[Event]:
    if said.addressee is None:
        return [Said(seat, said.text)]
    pair = (seat, said.addressee)
    events: list[Event] = [Said(seat, said.text, said.addressee, to=pair)]
    others = tuple(other.position for other in game.seats if other.position not in pair)
    if game.row.press == "public" and others:
        events.append(Whispered(seat, said.addressee, to=others))
    return events


def relay_talk(
    desk: Desk, game: LoadedGame, seat: int, events: Sequence[Event], since: int
) -> None:
    """A short email to each other person told any of `events`, unless a status email went to
    them in this transaction (letters from `since` on): its table talk already holds them."""
    if not events:
        return
    statused = {
        letter.to.lower() for letter in desk.postman.sent[since:] if letter.kind == "status"
    }
    for other in game.humans():
        if other.position == seat or other.address.lower() in statused:
            continue
        lines = tell_game(game, events, other.position)
        if not lines:
            continue
        letter = notice_letter(
            to=other.address,
            game=game,
            seat=other.position,
            settings=desk.settings,
            words="Table talk",
            kind="talk",
            lines=[
                *lines,
                "To answer, reply with SAY <text> (to everyone) or SAY TO <name> <text> "
                "(to one player only).",
            ],
        )
        desk.postman.post(letter, game.id)
