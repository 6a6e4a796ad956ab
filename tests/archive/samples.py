"""Finished games to archive: the sample transcripts played through the moderator, each in a
database of its own."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Engine

from pbem.cli.gm_entries import run_gm_entry
from pbem.cli.replay import Replayer, load_transcript
from pbem.moderator.desk import Desk
from pbem.orders.format import order_text
from pbem.store import open_database, session_scope
from tests.moderator.conftest import ANN, BO, CY, SETTINGS, Table

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"
# One game of each kind: the Show Manager one has an undo, a queued early order and a rejection.
GAMES = ["showmanager-standard-2p", "bigtime-3p"]
DEE = "dee@example.org"
# Where the corrected game's undo and `gm replace` came: Cy's seat passed to Dee in this phase.
REPLACED_IN = "Round 1 · Phase 2"


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


def play_corrected(url: str) -> Finished:
    """A whole The Big Time! game with what a real one has (the play-test's bt-1): Ann replaces
    her round-1 bid with another, the game master undoes the phase-1 resolution (Cy asked to fix
    his bid) and everyone bids again, then gives Cy's seat to Dee in phase 2; every other order
    is the seat's default."""
    engine = open_database(url)
    game = Table(engine, "bigtime", [f"{ANN}:Ann", f"{BO}:Bo", f"{CY}:Cy"], seed=3)

    def default(address: str) -> None:
        loaded = game.game()
        seat = next(s.position for s in loaded.seats if s.address == address)
        orders = order_text(loaded.engine.default_actions(loaded.state, seat))
        # The phase now, as the latest email to the seat names it (a status, or a reply).
        phase = f"Re: [{game.id}] Round {loaded.state.round} · Phase {loaded.state.phase}"
        result = game.mail(address, orders, subject=phase)
        assert result.status == "accepted", (address, orders)

    def gm(command: str) -> None:
        with session_scope(engine) as session:
            run_gm_entry(Desk(session, SETTINGS), game.id, command)

    assert game.mail(ANN, "BID 1").status == "accepted"
    default(BO)
    default(ANN)  # replaces her BID 1: she has an order on file, and is no longer awaited
    default(CY)  # the last bid: phase 1 resolves
    gm("undo --why 'Cy asked to fix his bid'")
    # Every seat the undo left without an order bids again (as the new undo has it, all of them).
    loaded = game.game()
    for seat in loaded.engine.awaiting(loaded.state):
        default(loaded.seat(seat).address)
    gm(f"replace Cy {DEE}:Dee --why 'Cy is moving house'")
    for _ in range(60):
        loaded = game.game()
        if loaded.engine.is_over(loaded.state):
            break
        default(loaded.seat(loaded.engine.awaiting(loaded.state)[0]).address)
    assert game.game().engine.is_over(game.game().state)
    return Finished("bigtime-corrected", url, engine, game.id, {})
