"""Finished games to archive: the sample transcripts played through the moderator, each in a
database of its own."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Engine

from pbem.cli.replay import Replayer, load_transcript

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"
# One game of each kind: the Show Manager one has an undo, a queued early order and a rejection.
GAMES = ["showmanager-standard-2p", "bigtime-3p"]


@dataclass(frozen=True)
class Finished:
    name: str
    url: str
    engine: Engine
    game_id: str
    data: dict[str, Any]  # the sample transcript it was played from


def play_sample(name: str, url: str) -> Finished:
    data = load_transcript(SAMPLES / f"{name}.yaml")
    replayer = Replayer(data, url)
    for entry in data["messages"]:
        if "gm" in entry:
            replayer.gm(str(entry["gm"]))
        else:
            replayer.send(entry)
    return Finished(name, url, replayer.engine, replayer.game_id, data)
