"""`pbem replay` runs computer players as the daemon does (REPLAY.md): a transcript in which a
player resigns or is removed plays on to the end, and every seat keeps its transcript address."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from sqlmodel import Session

from pbem.cli.replay import Replayer, replay
from pbem.games.rng import Rng
from pbem.orders.format import order_text

PLAYERS = [
    {"email": "ann@example.org", "name": "Ann"},
    {"email": "bo@example.org", "name": "Bo"},
    {"email": "cy@example.org", "name": "Cy"},
]
ADDRESSES = {p["email"] for p in PLAYERS}


def record(game: str, seed: int, leave: Any) -> dict[str, Any]:
    """A transcript of random legal emails; `leave(state, messages)` returns the entry that
    takes Bo out of the game (once), or None while Bo still plays."""
    data: dict[str, Any] = {"game": game, "seed": seed, "players": PLAYERS, "messages": []}
    replayer = Replayer(data)
    rng = Rng.from_seed(seed)
    left = False
    for _ in range(5000):
        with Session(replayer.engine) as session:
            loaded = replayer.game(session)
        if loaded.engine.is_over(loaded.state):
            return data
        entry = None if left else leave(loaded.state, data["messages"])
        if entry is not None:
            left = True
        else:
            humans = [s.position for s in loaded.seats if s.kind == "human"]
            seat = next(s for s in loaded.engine.awaiting(loaded.state) if s in humans)
            actions = loaded.engine.random_actions(loaded.state, seat, rng)
            entry = {"from": PLAYERS[seat]["email"], "body": order_text(actions)}
        if "gm" in entry:
            replayer.gm(entry["gm"])
        else:
            assert replayer.send(entry) != "rejected", entry
        data["messages"].append(entry)
    raise AssertionError("the game did not end")


def replayed(data: dict[str, Any], tmp_path: Path) -> dict[str, Any]:
    path = tmp_path / "transcript.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    result = replay(path)
    assert result.mismatches == []
    return result.summary


def test_a_player_resigning_in_round_4_of_the_big_time_plays_on_to_a_winner(tmp_path):
    def resign_in_round_4(state: Any, messages: list) -> dict[str, str] | None:
        return {"from": "bo@example.org", "body": "RESIGN"} if state.round == 4 else None

    data = record("bigtime", 7, resign_in_round_4)
    assert {"from": "bo@example.org", "body": "RESIGN"} in data["messages"]
    summary = replayed(data, tmp_path)
    assert summary["finished"] is True
    assert summary["winner"] in ADDRESSES
    assert set(summary["scores"]) == set(summary["money"]) == ADDRESSES


def test_a_seat_removed_by_the_game_master_is_played_by_the_computer_to_the_end(tmp_path):
    # A random Show Manager game is slow to record; the Big Time! one shows the same path.
    def remove_after_six_emails(state: Any, messages: list) -> dict[str, str] | None:
        return {"gm": "remove Bo --why 'left the hobby'"} if len(messages) == 6 else None

    summary = replayed(record("bigtime", 3, remove_after_six_emails), tmp_path)
    assert summary["finished"] is True
    assert set(summary["scores"]) == ADDRESSES
