"""The game master's transcript of a finished game replays to the same end: the same winner,
scores, money and board (REPLAY.md), though the game had an undo, a queued early order and a
rejected email (the Show Manager sample)."""

from __future__ import annotations

from collections.abc import Callable
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import yaml
from sqlalchemy import Engine
from sqlmodel import Session

from pbem.archive.page import finished_game
from pbem.archive.transcript import transcript
from pbem.cli.replay import replay
from pbem.games.showmanager.names import musical_name
from pbem.moderator import gm
from pbem.moderator.addresses import reply_address
from pbem.moderator.bots import answer_bot_mail
from pbem.moderator.desk import Desk
from pbem.moderator.inbound import handle_inbound
from pbem.moderator.loaded import load_game
from pbem.moderator.results import standings
from pbem.moderator.start import GameRequest, PlayerSpec, start_game
from pbem.orders.format import order_text
from pbem.settings import Settings
from pbem.store import last_history, open_database, session_scope, utc_now
from tests.archive.samples import DEE, Finished
from tests.moderator.conftest import ANN, BO, CY, Table


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


SETTINGS = Settings(address="pbem@example.org")
# What the person awaited does instead of sending the default orders, by step and address:
# an email body, or None for the default orders.
Instead = Callable[[Engine, str, int, str, str], str | None]


def _played_out(tmp_path: Path, instead: Instead) -> tuple[Engine, str]:
    """A Big Time! game of Ann, Bo and the computer player Robby played to its end, each person
    awaited sending the default orders unless `instead` does something else."""
    engine = open_database(f"sqlite:///{tmp_path}/pbem.sqlite3")
    players = (
        PlayerSpec("ann@example.org", "Ann"),
        PlayerSpec("bo@example.org", "Bo"),
        PlayerSpec.computer("Robby:random"),
    )
    with session_scope(engine) as session:
        game_id = start_game(Desk(session, SETTINGS), GameRequest("bigtime", players, seed=9)).id
    answer_bot_mail(engine, SETTINGS, utc_now)
    for step in range(40):
        with Session(engine) as session:
            game = load_game(session, game_id)
            if game.engine.is_over(game.state):
                break
            seat = game.seat(game.engine.awaiting(game.state)[0])
            body = order_text(game.engine.default_actions(game.state, seat.position))
            to = reply_address(SETTINGS.address, game_id, seat.secret)
            phase = f"[{game_id}] Round {game.state.round} · Phase {game.state.phase}"
        body = instead(engine, game_id, step, seat.address, body)
        if body is not None:
            message = EmailMessage()
            message["From"], message["To"], message["Subject"] = seat.address, to, phase
            message["Message-ID"] = make_msgid(domain="test.invalid")
            message.set_content(body)
            with session_scope(engine) as session:
                handle_inbound(Desk(session, SETTINGS), message.as_bytes(), "test")
        answer_bot_mail(engine, SETTINGS, utc_now)
    return engine, game_id


def _replays_the_same(engine: Engine, game_id: str, tmp_path: Path) -> None:
    with Session(engine) as session:
        game = finished_game(session, game_id)
        written = transcript(session, game)
        ended = standings(game)
    assert written.gaps == []
    path = tmp_path / "transcript.yaml"
    path.write_text(yaml.safe_dump(written.data, sort_keys=False), encoding="utf-8")
    result = replay(path)
    assert result.mismatches == []
    assert result.summary["board"] == ended["board"]


def test_computer_players_and_a_resignation_replay_the_same(tmp_path: Path) -> None:
    """A computer player from the start and a person who resigns halfway: their moves are
    written out as emails, so the replay does not depend on what a computer would choose."""

    def bo_resigns(engine: Engine, game_id: str, step: int, address: str, body: str) -> str:
        return "RESIGN" if step >= 6 and address == "bo@example.org" else body  # in round 1

    engine, game_id = _played_out(tmp_path, bo_resigns)
    with Session(engine) as session:
        seats = finished_game(session, game_id).seats
        assert [seat.kind for seat in seats] == ["human", "bot", "bot"]
    _replays_the_same(engine, game_id, tmp_path)


def test_orders_the_game_master_entered_replay_the_same(tmp_path: Path) -> None:
    """Found in play-testing: a Big Time! game master's `gm order` was recorded as "orders for
    Bo" alone, so the transcript could not write it as Bo's email and replayed to another end."""

    def gm_orders_for_bo(
        engine: Engine, game_id: str, step: int, address: str, body: str
    ) -> str | None:
        if address != "bo@example.org":
            return body
        with session_scope(engine) as session:
            gm.order(Desk(session, SETTINGS), game_id, "Bo", body, "Bo phoned")
        return None

    engine, game_id = _played_out(tmp_path, gm_orders_for_bo)
    with Session(engine) as session:
        history = last_history(session, game_id, 200)
        entered = [e for e in history if e.summary.startswith("orders for")]
    assert len(entered) > 1 and all(e.summary.startswith("orders for Bo: ") for e in entered)
    _replays_the_same(engine, game_id, tmp_path)


def test_a_replaced_order_an_undo_and_a_new_holder_replay_the_same(
    corrected: Finished, tmp_path: Path
) -> None:
    """Ann's second bid for a phase replaces her first, though her seat was no longer awaited;
    each email comes from the address that sent it then (Cy's before `gm replace`, Dee's after),
    with the replacement written as the `gm:` entry between them (REPLAY.md)."""
    with Session(corrected.engine) as session:
        game = finished_game(session, corrected.game_id)
        written = transcript(session, game)
        ended = standings(game)
    assert written.gaps == []
    data = written.data
    assert data["players"] == [
        {"email": ANN, "name": "Ann"},
        {"email": BO, "name": "Bo"},
        {"email": CY, "name": "Cy"},
    ]
    messages = data["messages"]
    assert [m.get("from") for m in messages[:3]] == [ANN, BO, ANN]
    assert messages[0]["body"].strip() == "BID 1"
    replaced = [i for i, m in enumerate(messages) if m.get("gm", "").startswith("replace")]
    assert replaced, messages
    moved = replaced[0]
    assert messages[moved]["gm"] == f"replace 3 {DEE}:Dee --why 'Cy is moving house'"
    senders = [m.get("from") for m in messages]
    assert CY in senders[:moved] and CY not in senders[moved:]
    assert DEE in senders[moved:] and DEE not in senders[:moved]
    path = tmp_path / "transcript.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    result = replay(path)
    assert result.mismatches == []
    assert result.summary["rejected"] == []
    for key in ("finished", "winner", "scores", "money", "board"):
        assert result.summary[key] == ended[key], key


def test_the_game_masters_money_and_value_fixes_replay_the_same(tmp_path: Path) -> None:
    """Found in play-testing: `gm set-money` could not be written, and the transcript replayed
    to another winner."""
    engine = open_database(f"sqlite:///{tmp_path}/pbem.sqlite3")
    game = Table(engine, "showmanager", [f"{ANN}:Ann", f"{BO}:Bo"], seed=4, first_player=ANN)
    fixed: list[str] = []
    for _ in range(400):
        if not game.play_default_turn():
            break
        chips = [chip for city in game.game().state.cities for chip in city if chip.owner == 0]
        with session_scope(engine) as session:
            desk = Desk(session, SETTINGS)
            if not fixed:
                fixed.append(gm.set_money(desk, game.id, "Bo", 40, "a slip").summary)
            elif len(fixed) == 1 and chips:
                name = musical_name(game.game().state, chips[0].musical)
                production = f"{name}#{chips[0].number}"
                fixed.append(gm.set_value(desk, game.id, "Ann", production, 9, None).summary)
    assert len(fixed) == 2 and game.game().engine.is_over(game.game().state)
    with Session(engine) as session:
        written = transcript(session, finished_game(session, game.id))
    gm_entries = [m["gm"] for m in written.data["messages"] if "gm" in m]
    assert gm_entries[0] == "set-money 2 40 --why 'a slip'"
    assert gm_entries[1].startswith("set-value 1 ") and gm_entries[1].endswith(" 9")
    _replays_the_same(engine, game.id, tmp_path)
