"""WATCH and UNWATCH: an email to the moderator's bare address asking to follow a game's public
status, or to stop (docs/orders.md, "Watching a game").

The request is the first line whose first word is WATCH or UNWATCH; greetings before it are
chatter. An email with a PASSWORD line before it speaks for a seat: it is orders, not a request.
The game is the word after the verb (`WATCH sm-12`, `WATCH [sm-12]`); the moderator takes a
missing one from the subject, so a watcher may answer UNWATCH alone to a status email of the game.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

WatchVerb = Literal["WATCH", "UNWATCH"]
_LINE = re.compile(r"^\s*(?P<verb>[A-Za-z]+)\b[\s:,]*(?P<rest>.*)$")
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
    for raw in text.splitlines():
        line = raw.strip()
        match = _LINE.match(line)
        if not line or line.startswith("#") or match is None:
            continue
        verb = match["verb"].upper()
        if verb == "PASSWORD":
            return None
        if verb in ("WATCH", "UNWATCH"):
            named = _GAME_WORD.match(match["rest"])
            game = named["game"].lower()[:_LONGEST_GAME] if named else None
            return WatchRequest("WATCH" if verb == "WATCH" else "UNWATCH", game, line)
    return None
