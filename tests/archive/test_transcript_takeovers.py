"""A seat that passed to a computer player (`gm remove`, RESIGN) is transcribed as it happened:
its player listed as they began, their own emails from their own address, the removal as its
`gm:` entry or the resignation as their email, then the computer player's emails from the
address it held the seat by; and the transcript still replays to the same end (REPLAY.md), though
the replay's own computer player takes the seat and draws dice of its own.

Found in play-testing: bt-1's transcript listed Bo and Cy from the start as their computer
players ("bbobco-2@bots.invalid", "Cy (computer)"), had their round-1 bids sent from there, and
no `gm: remove` entry."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from sqlalchemy import Engine
from sqlmodel import Session

from pbem.archive.page import finished_game
from pbem.archive.transcript import transcript
from pbem.cli.gm_entries import run_gm_entry
from pbem.cli.replay import replay
from pbem.moderator.bots import answer_bot_mail
from pbem.moderator.desk import Desk
from pbem.moderator.results import standings
from pbem.orders.format import order_text
from pbem.store import open_database, session_scope, utc_now
from tests.moderator.conftest import ANN, BO, CY, SETTINGS, Table

DEE, EVE = "dee@example.org", "eve@example.org"


class Game:
    """A game on a database of its own, the computer players answering as the daemon has them."""

    def __init__(self, tmp_path: Path, game: str, players: list[str], seed: int) -> None:
        self.engine: Engine = open_database(f"sqlite:///{tmp_path}/pbem.sqlite3")
        self.table = Table(self.engine, game, players, seed=seed)

    def send(self, address: str, body: str) -> None:
        state = self.table.game().state
        # The phase the email answers, as the latest status names it (a reply names it too).
        phase = getattr(state, "phase", None)
        subject = f"Re: [{self.table.id}] Round {state.round} · Phase {phase}" if phase else None
        result = self.table.mail(address, body, subject=subject)
        assert result.status == "accepted", (address, body, result)
        answer_bot_mail(self.engine, SETTINGS, utc_now)

    def default(self, address: str) -> None:
        game = self.table.game()
        seat = next(s.position for s in game.seats if s.address == address)
        self.send(address, order_text(game.engine.default_actions(game.state, seat)))

    def gm(self, command: str) -> None:
        with session_scope(self.engine) as session:
            run_gm_entry(Desk(session, SETTINGS), self.table.id, command)
        answer_bot_mail(self.engine, SETTINGS, utc_now)

    def awaited_people(self) -> list[str]:
        game = self.table.game()
        awaited = [game.seat(seat) for seat in game.engine.awaiting(game.state)]
        return [seat.address for seat in awaited if seat.kind == "human"]

    def finish(self) -> None:
        for _ in range(400):
            if self.table.game().engine.is_over(self.table.game().state):
                return
            self.default(self.awaited_people()[0])
        raise AssertionError("the game did not end")

    def transcribed(self, tmp_path: Path) -> dict[str, Any]:
        """The transcript, checked to replay to the game's end with no gap and no rejection."""
        with Session(self.engine) as session:
            game = finished_game(session, self.table.id)
            written = transcript(session, game)
            # Keyed as REPLAY.md keys a seat: by its transcript address, a removed one's too.
            keys = [player["email"] for player in written.data["players"]]
            for message in written.data["messages"]:
                if message.get("gm", "").startswith("replace "):
                    _, seat, newcomer, *_ = message["gm"].split()
                    keys[int(seat) - 1] = newcomer.partition(":")[0]
            ended = standings(game, keys)
        assert written.gaps == []
        path = tmp_path / "transcript.yaml"
        path.write_text(yaml.safe_dump(written.data, sort_keys=False), encoding="utf-8")
        result = replay(path)
        assert result.mismatches == []
        assert result.summary["rejected"] == []
        for key in ("finished", "winner", "scores", "money", "board"):
            assert result.summary[key] == ended[key], key
        return written.data


def senders(data: dict[str, Any]) -> list[str | None]:
    return [message.get("from") for message in data["messages"]]


def test_removed_players_are_listed_as_they_began_and_their_removal_written(
    tmp_path: Path,
) -> None:
    """The play-test's bt-1: Bo and Cy bid in round 1, the game master removes both and gives
    Dee's seat to Eve."""
    game = Game(tmp_path, "bigtime", [f"{ANN}:Ann", f"{BO}:Bo", f"{CY}:Cy", f"{DEE}:Dee"], 3)
    game.default(BO)
    game.default(CY)
    game.gm("remove Bo --why 'gone quiet'")
    game.gm("remove Cy")
    game.gm(f"replace Dee {EVE}:Eve --why 'Dee is busy'")
    game.finish()
    data = game.transcribed(tmp_path)
    assert [(p["email"], p["name"]) for p in data["players"]][:3] == [
        (ANN, "Ann"),
        (BO, "Bo"),
        (CY, "Cy"),
    ]
    messages = data["messages"]
    assert messages[:5] == [
        {"from": BO, "body": "BID 0\n"},
        {"from": CY, "body": "BID 0\n"},
        {"gm": "remove 2 --why 'gone quiet'"},
        {"gm": "remove 3"},  # no --why given: not the words gm.remove records in its place
        {"gm": f"replace 4 {EVE}:Eve --why 'Dee is busy'"},
    ]
    # Then the computer players' emails, from the addresses they held the seats by.
    later = set(senders(data)[5:])
    assert {"bo-2@bots.invalid", "cy-3@bots.invalid", ANN, EVE} == later
    # The replay keys the seats by the transcript's addresses for them (REPLAY.md).
    assert set(data["expect"]["scores"]) == {ANN, BO, CY, EVE}


def test_a_player_resigning_in_answer_to_their_phase_is_transcribed_as_their_email(
    tmp_path: Path,
) -> None:
    """Bo resigns when the phase waits for him alone, so the computer player bids at once, in
    his email's transaction: his RESIGN is written before Ann's bid, which changes nothing of
    the game, so the replay's computer player answers while Ann is awaited and the game's
    email replaces its order."""
    game = Game(tmp_path, "bigtime", [f"{ANN}:Ann", f"{BO}:Bo", f"{CY}:Cy"], 4)
    while game.table.game().state.round < 2:
        game.default(game.awaited_people()[0])
    game.default(ANN)
    game.default(CY)
    assert game.awaited_people() == [BO]
    game.send(BO, "RESIGN")
    game.finish()
    data = game.transcribed(tmp_path)
    assert [p["email"] for p in data["players"]] == [ANN, BO, CY]
    resigned = data["messages"].index({"from": BO, "body": "RESIGN\n"})
    assert BO not in senders(data)[resigned + 1 :]
    assert "bo-2@bots.invalid" not in senders(data)[:resigned]
    assert senders(data)[resigned + 1] == "bo-2@bots.invalid"


def test_a_show_manager_player_removed_on_their_turn_replays_the_same(tmp_path: Path) -> None:
    """The game master removes the player whose turn it is, and the computer player hires at
    once: its emails are written before the email that brought the seat its turn, where the
    replay keeps them as early orders that the turn plays before any computer player moves."""
    game = Game(tmp_path, "showmanager", [f"{ANN}:Ann", f"{BO}:Bo", f"{CY}:Cy"], 2)
    for _ in range(5):
        game.default(game.awaited_people()[0])
    while game.awaited_people() != [CY]:
        game.default(game.awaited_people()[0])
    game.gm("remove Cy --why 'no answer'")
    game.finish()
    data = game.transcribed(tmp_path)
    assert [p["email"] for p in data["players"]] == [ANN, BO, CY]
    removed = data["messages"].index({"gm": "remove 3 --why 'no answer'"})
    assert senders(data)[removed + 1] == "cy-3@bots.invalid"


def test_an_undo_after_a_removal_goes_back_to_the_same_entry(tmp_path: Path) -> None:
    """`gm: undo --to N` counts the replay's entries: a computer player's early orders make
    theirs when their turn comes, after the email that brings it, not where they are written."""
    game = Game(tmp_path, "showmanager", [f"{ANN}:Ann", f"{BO}:Bo", f"{CY}:Cy"], 1)
    for _ in range(4):
        game.default(game.awaited_people()[0])
    game.gm("remove Bo --why away")
    for _ in range(5):
        game.default(game.awaited_people()[0])
    game.gm("undo --why oops")  # unseen cards shuffled again: written as its `gm:` entry
    game.default(game.awaited_people()[0])
    game.gm("undo --why again")
    game.finish()
    data = game.transcribed(tmp_path)
    undone = [message["gm"] for message in data["messages"] if "undo" in message.get("gm", "")]
    assert len(undone) == 2
