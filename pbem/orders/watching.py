"""WATCH and UNWATCH: an email to the moderator's bare address asking to follow a game's public
status, or to stop (docs/orders.md, "Watching a game").

The request is the first line whose first word is WATCH or UNWATCH; greetings before it are
chatter. An email with a PASSWORD line before it speaks for a seat: it is orders, not a request
(`pbem/orders/requests.py`, as for every request to the bare address).
The game is the word after the verb (`WATCH sm-12`, `WATCH [sm-12]`); the moderator takes a
missing one from the subject, so a watcher may answer UNWATCH alone to a status email of the game.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from pbem.orders.requests import request_line

WatchVerb = Literal["WATCH", "UNWATCH"]
# A game as written after the verb: its id, perhaps in brackets as subjects carry it.
_GAME_WORD = re.compile(r"^\[?(?P<game>[\w-]+)")
# Longer than any game id: shortened before it is quoted back in a reply.
_LONGEST_GAME = 32


@dataclass(frozen=True)
class WatchRequest:
    verb: WatchVerb
    game_id: str | None  # lower-cased as written; None: the line names no game
    line: str  # the line as written


def watch_request(text: str) -> WatchRequest | None:
    """The WATCH or UNWATCH request in an email's new text, or None when it holds none."""
    request = request_line(text, ("WATCH", "UNWATCH"))
    if request is None:
        return None
    named = _GAME_WORD.match(request.rest)
    game = named["game"].lower()[:_LONGEST_GAME] if named else None
    return WatchRequest("WATCH" if request.word == "WATCH" else "UNWATCH", game, request.line)
