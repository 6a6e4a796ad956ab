"""Computer players answer within a share of the daemon's cycle, and a new seat plays strong.

A game of strong computer players takes a minute or more; the running daemon gives them
`BOT_SECONDS_PER_CYCLE` a cycle, sends what is due, and starts the next cycle at once. Seats
kept without a level (a player left, or from before levels were kept) play the repeatable
sensible player.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import Session, col, select

from pbem.daemon import Daemon, loop
from pbem.games.levels import CARETAKER_LEVEL, DEFAULT_LEVEL, ComputerPlayer, computer_player
from pbem.moderator import computers
from pbem.moderator.addresses import bot_address
from pbem.moderator.bots import answer_bot_mail
from pbem.moderator.desk import Desk
from pbem.moderator.loaded import load_game
from pbem.moderator.start import GameRequest, PlayerSpec, start_game
from pbem.settings import Settings
from pbem.store import OutboxRow, session_scope, utc_now


def _bots_game(daemon: Daemon, levels: tuple[str, ...]) -> str:
    players = tuple(
        PlayerSpec.computer(f"{name}:{level}")
        for name, level in zip(("Ada", "Brecht", "Cleo"), levels, strict=False)
    )
    request = GameRequest("bigtime", players, seed=7)
    with session_scope(daemon.engine) as session:
        return start_game(Desk(session, daemon.settings), request).id


def _daemon(tmp_path: Path) -> Daemon:
    tmp_path.mkdir(exist_ok=True)
    return Daemon(
        Settings(
            database_url=f"sqlite:///{tmp_path / 'pbem.sqlite3'}",
            address="pbem@example.org",
            maildir=str(tmp_path / "mail"),
        )
    )


def _sent_to_bots(daemon: Daemon) -> int:
    with Session(daemon.engine) as session:
        rows = session.exec(select(OutboxRow).where(col(OutboxRow.status) == "sent")).all()
        return sum(1 for row in rows if row.to_address.endswith("@bots.invalid"))


@pytest.mark.parametrize(
    ("players", "level"),
    [
        (
            (PlayerSpec.computer("Ada"), PlayerSpec.computer("Bo")),
            "strong",
        ),
        # Stored with no level, as a seat a player left is.
        (
            tuple(PlayerSpec(bot_address(name), name, bot=name) for name in ("Ada", "Bo")),
            "sensible",
        ),
    ],
)
def test_a_new_seat_plays_strong_and_a_seat_kept_without_a_level_plays_sensible(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, players: tuple[PlayerSpec, ...], level: str
) -> None:
    """`--bot NAME` plays at DEFAULT_LEVEL; a seat stored with no level at CARETAKER_LEVEL."""
    assert (DEFAULT_LEVEL, CARETAKER_LEVEL) == ("strong", "sensible")
    asked: list[str] = []

    def recording(game: str, requested: str, data: Any) -> ComputerPlayer:
        asked.append(requested)
        return computer_player(game, "sensible", data)  # quick: the level asked is what counts

    monkeypatch.setattr(computers, "computer_player", recording)
    daemon = _daemon(tmp_path)
    try:
        with session_scope(daemon.engine) as session:
            start_game(Desk(session, daemon.settings), GameRequest("bigtime", players, seed=7))
        answer_bot_mail(daemon.engine, daemon.settings, utc_now)
    finally:
        daemon.close()
    assert len(asked) >= 2 * 8 and set(asked) == {level}


def test_out_of_time_one_email_is_answered_and_the_cycle_says_more_wait(tmp_path: Path) -> None:
    daemon = _daemon(tmp_path)
    try:
        _bots_game(daemon, ("sensible", "sensible", "sensible"))
        report = daemon.cycle(bot_seconds=0.0)
        assert _sent_to_bots(daemon) == 1  # one delivery a call at least: the game moves on
        assert report.bots_waiting  # so the running daemon does not wait for new mail
    finally:
        daemon.close()


def test_a_game_of_computer_players_spread_over_cycles_plays_to_its_end(tmp_path: Path) -> None:
    daemon = _daemon(tmp_path)
    try:
        game_id = _bots_game(daemon, ("sensible", "sensible", "sensible"))
        cycles = 0
        while True:
            cycles += 1
            assert cycles < 10_000
            if not daemon.cycle(bot_seconds=0.05).bots_waiting:
                break
        assert cycles > 1  # 50 ms is not a whole game, even of sensible players
        with Session(daemon.engine) as session:
            game = load_game(session, game_id)
            assert game.engine.is_over(game.state)
            assert game.engine.outcome(game.state).winner is not None
    finally:
        daemon.close()


def test_without_a_share_every_email_is_answered(tmp_path: Path) -> None:
    daemon = _daemon(tmp_path)
    try:
        _bots_game(daemon, ("sensible", "random"))
        answers = answer_bot_mail(daemon.engine, daemon.settings, utc_now)
        assert answers.finished and answers.answered >= 2 * 8
    finally:
        daemon.close()


def test_the_running_daemon_does_not_wait_for_mail_while_computer_players_have_some(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a 50 ms share and 300 s between cycles, a game of computer players still ends at
    once: the daemon waits for new mail only when they have answered everything."""
    monkeypatch.setattr(loop, "BOT_SECONDS_PER_CYCLE", 0.05)
    daemon = _daemon(tmp_path)
    game_id = _bots_game(daemon, ("sensible", "sensible", "sensible"))
    running = threading.Thread(target=daemon.serve, kwargs={"wait_seconds": 300.0})
    running.start()
    try:
        for _ in range(600):
            with Session(daemon.engine) as session:
                if load_game(session, game_id).row.status == "finished":
                    break
            time.sleep(0.1)
        else:
            raise AssertionError("the game of computer players did not end in 60 s")
    finally:
        daemon.stop()
        running.join(timeout=30)
    assert not running.is_alive()
