"""Deadline policies run by the daemon's cycle: wait tells the GM once, default plays on."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from sqlmodel import Session, col, select

from pbem.daemon import Daemon
from pbem.moderator.desk import Desk
from pbem.moderator.loaded import load_game
from pbem.moderator.start import GameRequest, PlayerSpec, start_game
from pbem.settings import Settings
from pbem.store import OutboxRow, session_scope

GM = "gm@example.org"
PLAYERS = ("ann@example.org", "bo@example.org", "cy@example.org")


def local_daemon(tmp_path: Path) -> Daemon:
    settings = Settings(
        database_url=f"sqlite:///{tmp_path}/pbem.sqlite3",
        address="pbem@example.org",
        maildir=str(tmp_path / "mail"),
    )
    return Daemon(settings, gm_address=GM)


def start(daemon: Daemon, policy: str, game: str = "bigtime") -> str:
    request = GameRequest(
        game=game,
        players=tuple(PlayerSpec(p) for p in PLAYERS),
        seed=3,
        deadline_hours=24,
        policy=policy,  # type: ignore[arg-type]
        first_player=PLAYERS[0] if game == "showmanager" else None,
    )
    with session_scope(daemon.engine) as session:
        return start_game(Desk(session, daemon.settings), request).id


def mail_to(daemon: Daemon, address: str) -> int:
    with Session(daemon.engine) as session:
        statement = select(OutboxRow).where(col(OutboxRow.to_address) == address)
        return len(session.exec(statement).all())


def test_policy_wait_tells_the_game_master_once_and_changes_nothing(tmp_path: Path) -> None:
    daemon = local_daemon(tmp_path)
    try:
        game_id = start(daemon, "wait")
        assert daemon.cycle().deadlines == 0
        start_time = daemon.clock()
        daemon.clock = lambda: start_time + timedelta(hours=25)
        assert daemon.cycle().deadlines == 1
        assert daemon.cycle().deadlines == 0
        assert mail_to(daemon, GM) == 1
        with Session(daemon.engine) as session:
            assert load_game(session, game_id).row.version == 1
    finally:
        daemon.close()


def test_policy_default_plays_for_the_silent_seats_and_sets_the_next_deadline(
    tmp_path: Path,
) -> None:
    daemon = local_daemon(tmp_path)
    try:
        game_id = start(daemon, "default")
        with Session(daemon.engine) as session:
            before = load_game(session, game_id)
        start_time = daemon.clock()
        late = start_time + timedelta(hours=25)
        daemon.clock = lambda: late
        report = daemon.cycle()
        assert report.deadlines == 1 and report.outbox.sent >= len(PLAYERS)
        with Session(daemon.engine) as session:
            after = load_game(session, game_id)
        assert after.state.phase_key != before.state.phase_key
        assert after.row.deadline_at == late + timedelta(hours=24)
        assert daemon.cycle().deadlines == 0
    finally:
        daemon.close()


def subjects_to(daemon: Daemon, address: str) -> list[str]:
    from pbem.orders.incoming import read_email

    with Session(daemon.engine) as session:
        statement = select(OutboxRow).where(col(OutboxRow.to_address) == address)
        return [read_email(row.raw).subject for row in session.exec(statement).all()]


def test_reminder_goes_once_to_each_seat_still_awaited_when_a_quarter_of_the_time_is_left(
    tmp_path: Path,
) -> None:
    daemon = local_daemon(tmp_path)
    try:
        start(daemon, "wait")
        start_time = daemon.clock()
        daemon.clock = lambda: start_time + timedelta(hours=17)  # 7 h left: not yet
        daemon.cycle()
        assert not any("Reminder" in s for s in subjects_to(daemon, PLAYERS[0]))
        daemon.clock = lambda: start_time + timedelta(hours=19)  # 5 h left: remind
        daemon.cycle()
        daemon.cycle()
        for player in PLAYERS:
            assert sum("Reminder" in s for s in subjects_to(daemon, player)) == 1
    finally:
        daemon.close()


def test_policy_skip_passes_the_show_manager_turn_with_nothing_done(tmp_path: Path) -> None:
    daemon = local_daemon(tmp_path)
    try:
        game_id = start(daemon, "skip", game="showmanager")
        with Session(daemon.engine) as session:
            before = load_game(session, game_id)
        start_time = daemon.clock()
        daemon.clock = lambda: start_time + timedelta(hours=25)
        assert daemon.cycle().deadlines == 1
        with Session(daemon.engine) as session:
            after = load_game(session, game_id)
        assert after.engine.awaiting(after.state) == (1,)
        old, new = before.engine.view(before.state, None), after.engine.view(after.state, None)
        assert [p.hand_size for p in new.players] == [p.hand_size for p in old.players]
        assert [p.money for p in new.players] == [p.money for p in old.players]
    finally:
        daemon.close()


def test_deadline_passed_while_the_daemon_was_down_is_acted_on_after_a_restart(
    tmp_path: Path,
) -> None:
    daemon = local_daemon(tmp_path)
    game_id = start(daemon, "default")
    start_time = daemon.clock()
    daemon.close()
    restarted = local_daemon(tmp_path)
    try:
        restarted.clock = lambda: start_time + timedelta(hours=30)
        assert restarted.cycle().deadlines == 1
        with Session(restarted.engine) as session:
            assert load_game(session, game_id).state.phase_key == "r1p2"
    finally:
        restarted.close()
