"""The game master's transcript of a game (REPLAY.md): `pbem replay` plays it to the same end.

It holds the seed and every seat's address, so it is the game master's file, never for
publishing. It is rebuilt from the history's recorded states, not from the emails as they came:
each entry that changed the game becomes the email of the seat whose orders made that change
(found by carrying the candidate orders out again and comparing the states), entries an undo
took back are left out, and every seat is a person in it (a computer player's moves are written
out like anyone's), so it replays the same whatever a computer player would choose today. A
change no email can make (a GM money or value fix, a turn skipped at a deadline) cannot be
written; it is named in `Transcript.gaps`, and the replay then ends elsewhere.
"""

from __future__ import annotations

import dataclasses
import json
import re
from dataclasses import dataclass, field
from typing import Any

from sqlmodel import Session

from pbem.games.base import NewGame
from pbem.moderator.loaded import LoadedGame, encode_state
from pbem.moderator.play import parse_for
from pbem.moderator.results import standings
from pbem.orders.format import order_text
from pbem.store import HistoryRow, history_since

# `orders for Alice: HIRE 0`: the game master's orders, as gm.py and play.py record them.
_GM_ORDERS = re.compile(r"^orders for .*?: ")


@dataclass
class Transcript:
    data: dict[str, Any]
    gaps: list[str] = field(default_factory=list)


def transcript(session: Session, game: LoadedGame) -> Transcript:
    """The game's transcript, with its `expect` set to where the game ended."""
    rows = history_since(session, game.id, 0)
    path: list[tuple[str, dict[str, Any] | None]] = []  # (state after, email) per kept change
    gaps: list[str] = []
    for row in rows:
        before = path[-1][0] if path else None
        if before is None or row.state_after == before:
            if before is None:
                path.append((row.state_after, None))
            continue
        undone = [index for index, (state, _) in enumerate(path) if state == row.state_after]
        if undone:  # an undo: back to that state, the entries after it no longer count
            del path[undone[-1] + 1 :]
            continue
        email = _email(game, row, before)
        if email is None:
            gaps.append(f"entry {row.seq} ({row.summary}) cannot be written as an email")
        path.append((row.state_after, email))
    keys = [seat.address for seat in game.seats]
    data: dict[str, Any] = {
        "game": game.row.game,
        "variant": game.row.variant,
        "seed": game.row.seed,
        "players": [
            {"email": seat.address, "name": game.name_of(seat.position)} for seat in game.seats
        ],
    }
    first = _first_player(game, path[0][0] if path else "")
    if first is None:
        gaps.append("the game's start is not the one its seed deals (a fixed set-up)")
    elif first >= 0:
        data["first_player"] = keys[first]
    data["messages"] = [email for _, email in path if email is not None]
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


def _email(game: LoadedGame, row: HistoryRow, before: str) -> dict[str, Any] | None:
    """The email that takes the game from `before` to the entry's state, or None."""
    state = game.engine.load(json.loads(before))
    at = dataclasses.replace(game, state=state)
    text = _GM_ORDERS.sub("", row.summary).replace(" / ", "\n")
    written = parse_for(at, text)
    for seat in game.engine.awaiting(state):
        candidates = [game.engine.default_actions(state, seat)]
        if not written.errors and written.actions:
            candidates.insert(0, list(written.actions))
        for actions in candidates:
            outcome = game.engine.submit(state, seat, actions)
            if outcome.accepted and encode_state(game, outcome.state) == row.state_after:
                return {"from": game.seat(seat).address, "body": order_text(actions)}
    return None
