"""`pbem status`: what it reads from the database, and when it says something needs a person."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import Engine
from typer.testing import CliRunner

from pbem.cli import app
from pbem.store import open_database, session_scope, utc_now
from pbem.store.operations import daemon_status
from tests.support.db import insert_game

runner = CliRunner()


@pytest.fixture
def database(tmp_path: Path) -> Iterator[tuple[Engine, dict[str, str]]]:
    url = f"sqlite:///{tmp_path}/pbem.sqlite3"
    engine = open_database(url)
    (tmp_path / "empty.toml").write_text("", encoding="utf-8")  # no settings from a file
    yield engine, {"PBEM_DATABASE_URL": url, "PBEM_CONFIG": str(tmp_path / "empty.toml")}
    engine.dispose()


def test_no_daemon_yet_needs_a_person(database: tuple[Engine, dict[str, str]]) -> None:
    _, env = database
    result = runner.invoke(app, ["status"], env=env)
    assert result.exit_code == 1 and "NEEDS YOU: no daemon has run yet" in result.stdout


def test_a_running_daemon_silent_for_two_waits_needs_a_person_a_stopped_one_does_not(
    database: tuple[Engine, dict[str, str]],
) -> None:
    engine, env = database
    long_ago = utc_now() - timedelta(minutes=30)
    with session_scope(engine) as session:
        silent = daemon_status(session, "silent")
        silent.beat_at, silent.wait_seconds = long_ago, 300.0
        stopped = daemon_status(session, "stopped")
        stopped.beat_at, stopped.stopped_at = long_ago, long_ago
        fresh = daemon_status(session, "fresh")
        fresh.beat_at = utc_now()

    result = runner.invoke(app, ["status", "--json"], env=env)

    report = json.loads(result.stdout)
    assert result.exit_code == 1 and report["healthy"] is False
    assert [problem.split(":")[0] for problem in report["problems"]] == ["silent"]
    assert [daemon["name"] for daemon in report["daemons"]] == ["fresh", "silent", "stopped"]


def test_games_waiting_on_deadlines_are_listed_soonest_first(
    database: tuple[Engine, dict[str, str]],
) -> None:
    engine, env = database
    now = utc_now()
    with session_scope(engine) as session:
        daemon_status(session, "pbem").beat_at = now
        later, sooner, none = (insert_game(session) for _ in range(3))
        later.deadline_at, later.policy = now + timedelta(hours=20), "skip"
        sooner.deadline_at = now + timedelta(hours=2)
        ids = [sooner.id, later.id]
        assert none.deadline_at is None

    result = runner.invoke(app, ["status", "--json"], env=env)
    text = runner.invoke(app, ["status"], env=env).stdout

    deadlines = json.loads(result.stdout)["deadlines"]
    assert result.exit_code == 0
    assert [(d["game"], d["policy"]) for d in deadlines] == [(ids[0], "wait"), (ids[1], "skip")]
    assert "games waiting on a deadline: 2" in text and f"{ids[1]}: " in text
    assert [d["passed"] for d in deadlines] == [False, False] and ", passed" not in text
    with session_scope(engine) as session:
        late = insert_game(session)
        late.deadline_at, late_id = now - timedelta(minutes=5), late.id
    text = runner.invoke(app, ["status"], env=env).stdout
    assert f"  {late_id}: " in text and "(policy wait, passed)" in text
    assert "outbox: 0 pending, 0 deferred, 0 failed" in text


def test_a_run_once_daemon_shows_as_stopped_and_never_as_silent(
    database: tuple[Engine, dict[str, str]], tmp_path: Path
) -> None:
    engine, env = database
    env = {**env, "PBEM_ADDRESS": "pbem@example.org", "PBEM_MAILDIR": str(tmp_path / "mail")}
    ran = runner.invoke(app, ["run", "--once"], env=env)
    assert ran.exit_code == 0, ran.output

    result = runner.invoke(app, ["status"], env=env)
    assert result.exit_code == 0, result.output
    assert "daemon pbem: stopped " in result.stdout
    # No server was contacted: the report names the Maildir's folders, as `pbem run` used them.
    mail = tmp_path / "mail"
    assert f"  Maildir {mail / 'inbox'}: last read 20" in result.stdout
    assert f"  Maildir {mail / 'sent'}: last written never" in result.stdout  # nothing to send
    assert "IMAP" not in result.stdout and "SMTP" not in result.stdout
    # A cron job's next run is not a cycle this process owes: hours later, nothing needs you.
    with session_scope(engine) as session:
        daemon_status(session, "pbem").beat_at = utc_now() - timedelta(hours=6)
    report = json.loads(runner.invoke(app, ["status", "--json"], env=env).stdout)
    assert report["healthy"] is True and report["problems"] == []
