"""The game master's transcript of a game (REPLAY.md): `pbem replay` plays it to the same end.

It holds the seed and every seat's address, so it is the game master's file, never for
publishing. It is rebuilt from the history's recorded states, not from the emails as they came:
each entry that changed the game becomes the email of the seat whose orders made that change
(found by carrying the candidate orders out again and comparing the states), entries an undo
took back are left out (unless it shuffled cards again: then they stay, followed by its `gm:
undo`), and a computer player's moves are written out like anyone's, so it replays the same
whatever a computer player would choose today: a computer player from the start is a person
in it, at its own address. An email that replaces the seat's orders on file (The Big Time!: a
later email for the same phase) is written like any other. A Show Manager money or value fix
is written as the `gm:` entry that makes it (`set-money 2 40`). A change nothing can make again
(a turn skipped at a deadline) cannot be written; it is named in `Transcript.gaps`, and the
replay then ends elsewhere.

The players are listed as they began, and each email comes from the address that sent it then
(`senders.py`). A seat's change of hands while the game ran is written as it was made: `gm
replace` and `gm remove` as their `gm:` entries, a resignation as the player's RESIGN, kept even
when an undo later took back the play around it, since an undo gives no seat back. The replay
gives a seat its player left to a computer player of its own, so that computer player's emails
go where the replay takes them instead of its own choice (`takeovers.py`). A change of hands
after the game ended changed nothing of the play and is left out.
"""

from __future__ import annotations

import dataclasses
import json
import re
import shlex
from dataclasses import dataclass, field
from typing import Any

from sqlmodel import Session

from pbem.games.base import Event, NewGame
from pbem.games.event_codec import decode_events
from pbem.games.showmanager.events import MoneySet, ValueSet
from pbem.games.showmanager.names import musical_name
from pbem.moderator import events as _moderator_events  # noqa: F401 - registers their kinds
from pbem.moderator.events import SeatLeft, SeatMoved, Undone
from pbem.moderator.loaded import LoadedGame, encode_state
from pbem.moderator.play import parse_for
from pbem.moderator.results import standings
from pbem.orders.format import order_text
from pbem.store import HistoryRow, history_since

from .senders import Senders
from .steps import Command, Left, Replaced, Sent, Step, Undo
from .takeovers import places

# `orders for Alice: HIRE 0`: the game master's orders, as gm.py and play.py record them.
_GM_ORDERS = re.compile(r"^orders for .*?: ")
# A computer player's move the replay's own makes (`takeovers.py`), named in `Transcript.gaps`.
_AT_ONCE = (
    "entry {entry}: the computer player that took seat {seat} moved at once, where the"
    " replay's own computer player moves instead, by dice of its own"
)
# What `gm.remove` records as the reason when the game master gave none.
REMOVED_WITHOUT_WHY = "removed by the game master"


@dataclass
class Transcript:
    data: dict[str, Any]
    gaps: list[str] = field(default_factory=list)


def transcript(session: Session, game: LoadedGame) -> Transcript:
    """The game's transcript, with its `expect` set to where the game ended."""
    gaps: list[str] = []
    senders = Senders(game)
    steps = _steps(game, history_since(session, game.id, 0), senders, gaps)
    data: dict[str, Any] = {
        "game": game.row.game,
        "variant": game.row.variant,
        "seed": game.row.seed,
        "players": [
            {"email": senders.address(seat, 0), "name": senders.name(seat, 0)}
            for seat in range(len(game.seats))
        ],
    }
    keys = [player["email"] for player in data["players"]]
    first = _first_player(game, steps[0].state if steps else "")
    if first is None:
        gaps.append("the game's start is not the one its seed deals (a fixed set-up)")
    elif first >= 0:
        data["first_player"] = keys[first]
    data["messages"] = _messages(game, steps, senders, keys, gaps)
    # Keyed as the replay keys them: by the address each seat has where the transcript ends.
    result = standings(game, keys)
    data["expect"] = {
        "finished": result["finished"],
        "winner": result["winner"],
        "scores": result["scores"],
        "money": result["money"],
        "board": result["board"],
        "rejected": [],
    }
    return Transcript(data, gaps)


def _steps(
    game: LoadedGame, rows: list[HistoryRow], senders: Senders, gaps: list[str]
) -> list[Step]:
    """The kept changes, in order; `senders` learns who held each seat, `gaps` what no email
    can make."""
    steps: list[Step] = []
    for row in rows:
        if not steps:
            steps.append(Step(row.state_after, row.seq, None))
            continue
        before = steps[-1].state
        events = decode_events(row.events) if row.events else []
        moved = [event for event in events if isinstance(event, SeatMoved | SeatLeft)]
        for event in moved:
            if isinstance(event, SeatLeft):
                senders.left(event.seat, row)
                change: Replaced | Left = Left(event.seat, row.seq, event.removed, row.why)
            else:
                senders.moved(event.seat, row.seq, event.old_name)
                change = Replaced(event.seat, row.seq, row.why)
            if not game.engine.is_over(game.engine.load(json.loads(before))):
                steps.append(Step(row.state_after, row.seq, change))
        undo = next((event for event in events if isinstance(event, Undone)), None)
        if undo is not None:
            _undo(steps, row, undo.entry)
        if moved or undo is not None or row.state_after == before:
            continue
        if (command := _correction(game, before, events, row.why)) is not None:
            steps.append(Step(row.state_after, row.seq, Command(command)))
            continue
        sent = _email(game, row, before)
        if sent is None:
            gaps.append(f"entry {row.seq} ({row.summary}) cannot be written as an email")
        else:
            senders.wrote(sent.seat, row)
        steps.append(Step(row.state_after, row.seq, sent))
    return steps


def _undo(steps: list[Step], row: HistoryRow, target: int) -> None:
    """An undo back to entry `target`. When it put the game back exactly as that entry left
    it, the entries after it no longer count and are left out (a `gm replace` among them
    stays: an undo gives no seat back). When it changed what it went back to (revealed sealed
    orders taken back, unseen cards shuffled again), only `gm undo` itself does that: the play
    it undid is kept and the undo written after it."""
    back = max(index for index, step in enumerate(steps) if step.seq <= target)
    if steps[back].state != row.state_after:
        steps.append(Step(row.state_after, row.seq, Undo(back, row.why)))
        return
    kept = [step for step in steps[back + 1 :] if isinstance(step.made, Replaced | Left)]
    del steps[back + 1 :]
    steps += [dataclasses.replace(step, state=row.state_after) for step in kept]


def _messages(
    game: LoadedGame, steps: list[Step], senders: Senders, keys: list[str], gaps: list[str]
) -> list[dict[str, Any]]:
    """The transcript's `messages`; `keys` follows each `gm replace` to the seat's new address.
    A computer player's email in a seat it took over goes where the replay takes it
    (`takeovers.py`), so the messages are put in order after they are written."""
    placed = places(game, steps)
    written: dict[int, dict[str, Any]] = {}  # by step
    for index, step in enumerate(steps[1:], start=1):
        made, place = step.made, placed[index]
        if isinstance(made, Sent) and not place.written:
            gaps.append(_AT_ONCE.format(entry=made.seq, seat=made.seat + 1))
        elif isinstance(made, Sent):
            holder = senders.holder(made.seat, made.seq)
            written[index] = {"from": senders.address(made.seat, holder), "body": made.body}
        elif isinstance(made, Replaced):
            holder = senders.holder(made.seat, made.seq)
            keys[made.seat] = senders.address(made.seat, holder)
            written[index] = {"gm": _replace_entry(senders, made, holder)}
        elif isinstance(made, Left):
            # The replay keys the seat by its player's address still (REPLAY.md): `keys` stays.
            written[index] = _left_entry(senders, made)
        elif isinstance(made, Command):
            written[index] = {"gm": shlex.join(made.words)}
    messages: list[dict[str, Any]] = []
    # The replay's history entry each step leaves it at (the start is entry 1); early orders
    # make theirs when their turn comes, after the email that brings it.
    entries: dict[int, int] = {}
    total = 0
    early: dict[int, list[int]] = {}  # by the step that brings their turn
    for index in sorted(range(len(steps)), key=lambda index: placed[index].key):
        made, place = steps[index].made, placed[index]
        if isinstance(made, Undo):
            words = ["undo", "--to", str(entries[made.back])]
            written[index] = {"gm": shlex.join(words + _why(made.why))}
        if place.deferred:
            early.setdefault(place.key[0], []).append(index)
        else:
            for played in [index, *early.pop(index, [])]:
                total += placed[played].entries
                entries[played] = total
        if place.joined:
            messages[-1]["body"] += written[index]["body"]
        elif index in written:
            messages.append(written[index])
    return messages


def _left_entry(senders: Senders, made: Left) -> dict[str, Any]:
    """`gm: remove 2 --why ...`, or the player's own email that resigned."""
    if made.removed:
        return {"gm": shlex.join(["remove", str(made.seat + 1), *_why(_own_why(made.why))])}
    holder = senders.holder(made.seat, made.seq - 1)
    return {"from": senders.address(made.seat, holder), "body": "RESIGN\n"}


def _correction(
    game: LoadedGame, before: str, events: list[Event], why: str | None
) -> list[str] | None:
    """The `gm` command of a Show Manager money or value fix, the seat by number: no email makes
    one, and left out the transcript replayed to another end (play-testing)."""
    for event in events:
        if isinstance(event, MoneySet):
            return ["set-money", str(event.seat + 1), str(event.amount), *_why(why)]
        if isinstance(event, ValueSet):
            state = game.engine.load(json.loads(before))
            production = f"{musical_name(state, event.musical)}#{event.number}"
            return ["set-value", str(event.seat + 1), production, str(event.value), *_why(why)]
    return None


def _replace_entry(senders: Senders, made: Replaced, holder: int) -> str:
    """`replace 3 dee@example.org:Dee --why '...'`: the seat by number, its next holder."""
    newcomer = f"{senders.address(made.seat, holder)}:{senders.name(made.seat, holder)}"
    return shlex.join(["replace", str(made.seat + 1), newcomer, *_why(made.why)])


def _own_why(why: str | None) -> str | None:
    """The game master's reason for a removal, not the words `gm remove` writes without one."""
    return None if why == REMOVED_WITHOUT_WHY else why


def _why(why: str | None) -> list[str]:
    return ["--why", why] if why else []


def _first_player(game: LoadedGame, start: str) -> int | None:
    """-1 when the seed alone deals the recorded start; the seat when the game master chose who
    begins (Show Manager); None when neither does."""
    for first in (None, *range(len(game.seats))):
        spec = NewGame(len(game.seats), game.row.variant, game.row.seed, first, game.data_file)
        if encode_state(game, game.engine.new_game(spec)) == start:
            return -1 if first is None else first
        if not game.kind.turn_based:
            break
    return None


def _email(game: LoadedGame, row: HistoryRow, before: str) -> Sent | None:
    """The email that takes the game from `before` to the entry's state, or None. The seats
    awaited are tried first; then the others, whose email may replace orders they have on file."""
    state = game.engine.load(json.loads(before))
    at = dataclasses.replace(game, state=state)
    text = _GM_ORDERS.sub("", row.summary).replace(" / ", "\n")
    written = parse_for(at, text)
    awaiting = game.engine.awaiting(state)
    others = [seat for seat in range(len(game.seats)) if seat not in awaiting]
    for seat in [*awaiting, *others]:
        candidates = [game.engine.default_actions(state, seat)] if seat in awaiting else []
        if not written.errors and written.actions:
            candidates.insert(0, list(written.actions))
        for actions in candidates:
            outcome = game.engine.submit(state, seat, actions)
            if outcome.accepted and encode_state(game, outcome.state) == row.state_after:
                return Sent(seat, order_text(actions), row.seq)
    return None
