"""The alarm clock: APScheduler jobs in the database wake the daemon at reminders and deadlines,
and a restarted daemon rings the alarms it missed."""

from __future__ import annotations

import threading
import time
from datetime import timedelta
from pathlib import Path

from sqlalchemy import inspect

from pbem.daemon.alarms import AlarmClock
from pbem.moderator.desk import Desk
from pbem.moderator.signup import SignupRequest, open_signup
from pbem.moderator.start import GameRequest, PlayerSpec, start_game
from pbem.settings import Settings
from pbem.store import open_database, session_scope

SECONDS = 1 / 3600


def _game(engine, hours: float) -> str:
    request = GameRequest(
        game="bigtime",
        players=(PlayerSpec("a@example.org"), PlayerSpec("b@example.org")),
        seed=1,
        deadline_hours=hours,
    )
    with session_scope(engine) as session:
        return start_game(Desk(session, Settings(address="pbem@example.org")), request).id


def test_alarms_are_jobs_in_the_database_and_ring_at_the_deadline(tmp_path: Path) -> None:
    engine = open_database(f"sqlite:///{tmp_path}/pbem.sqlite3")
    game_id = _game(engine, 2 * SECONDS)
    bell = threading.Event()
    clock = AlarmClock(engine, "test", bell)
    clock.start()
    try:
        assert set(clock.alarms()) == {f"deadline:{game_id}", f"reminder:{game_id}"}
        assert "apscheduler_test" in inspect(engine).get_table_names()
        assert bell.wait(5)
        _until_rung(clock)
    finally:
        clock.stop()


def test_a_restarted_daemon_rings_the_alarm_it_missed(tmp_path: Path) -> None:
    engine = open_database(f"sqlite:///{tmp_path}/pbem.sqlite3")
    _game(engine, 4 * SECONDS)
    first = AlarmClock(engine, "test", threading.Event())
    first.start()
    first.stop()  # the daemon goes down before the reminder and the deadline...
    time.sleep(5)  # ...and stays down past both
    bell = threading.Event()
    again = AlarmClock(engine, "test", bell)
    again.scheduler.start()  # no sync: the ring comes from the job store alone
    try:
        assert bell.wait(5)
        _until_rung(again)
    finally:
        again.stop()


def _until_rung(clock: AlarmClock) -> None:
    """Both alarms have rung and left the store (stopping a scheduler in the middle of that
    makes APScheduler's own thread fail to remove the job it ran)."""
    deadline = time.monotonic() + 5
    while clock.alarms() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert clock.alarms() == {}


def test_a_sign_up_start_date_rings_once_and_a_past_one_never(tmp_path: Path) -> None:
    engine = open_database(f"sqlite:///{tmp_path}/pbem.sqlite3")
    settings = Settings(address="pbem@example.org")
    with session_scope(engine) as session:
        desk = Desk(session, settings)
        soon = desk.clock() + timedelta(seconds=2)
        signup_id = open_signup(desk, SignupRequest("bigtime", start_at=soon)).id
    bell = threading.Event()
    clock = AlarmClock(engine, "test", bell)
    clock.start()
    try:
        assert set(clock.alarms()) == {f"start:{signup_id}"}
        assert bell.wait(5)
        _until_rung(clock)
        clock.sync()  # the date has passed and the sign-up is still open: no new alarm
        assert clock.alarms() == {}
    finally:
        clock.stop()
