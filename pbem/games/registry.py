"""The games pbem moderates, by the name used on the command line and in transcripts."""

from __future__ import annotations

from typing import Any

from pbem.games.base import RulesEngine

GAMES = ("showmanager", "bigtime")
TAGS = {"showmanager": "sm", "bigtime": "bt"}


class UnknownGame(ValueError):
    pass


def engine_for(game: str) -> RulesEngine[Any, Any]:
    if game == "showmanager":
        from pbem.games.showmanager import ENGINE as showmanager

        return showmanager
    if game == "bigtime":
        from pbem.games.bigtime import ENGINE as bigtime

        return bigtime
    raise UnknownGame(f"unknown game {game!r}: choose one of {', '.join(GAMES)}")
