"""The game master's transcript of a finished game replays to the same end: the same winner,
scores, money and board (REPLAY.md), though the game had an undo, a queued early order and a
rejected email (the Show Manager sample)."""

from __future__ import annotations

from pathlib import Path

import yaml
from sqlmodel import Session

from pbem.archive.page import finished_game
from pbem.archive.transcript import transcript
from pbem.cli.replay import replay, standings
from tests.archive.conftest import Finished


def test_the_transcript_replays_to_the_same_end(finished: Finished, tmp_path: Path) -> None:
    with Session(finished.engine) as session:
        game = finished_game(session, finished.game_id)
        written = transcript(session, game)
        ended = standings(game)
    assert written.gaps == []
    path = tmp_path / "transcript.yaml"
    path.write_text(yaml.safe_dump(written.data, sort_keys=False), encoding="utf-8")
    result = replay(path)
    assert result.mismatches == []
    for key in ("finished", "winner", "scores", "money", "board"):
        assert result.summary[key] == ended[key], key
    assert result.summary["finished"] is True
    # It is the game master's file: the seed and the players' addresses are in it.
    assert written.data["seed"] == game.row.seed
    assert [p["email"] for p in written.data["players"]] == [s.address for s in game.seats]
