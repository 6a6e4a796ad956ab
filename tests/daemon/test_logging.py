"""`pbem run`'s log lines: a timestamp on a terminal, a syslog priority and no timestamp under
journald, one JSON object a line with --log-format json."""

from __future__ import annotations

import io
import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.cli.logs import JournalFormatter, JsonFormatter, LogFormat, formatter_for, priority
from pbem.mail.maildir import deliver


def record(level: int, message: str, exc: bool = False) -> logging.LogRecord:
    exc_info = None
    if exc:
        try:
            raise ValueError("broken")
        except ValueError:
            exc_info = sys.exc_info()
    return logging.LogRecord("pbem.daemon", level, __file__, 1, message, None, exc_info)


@pytest.mark.parametrize(
    ("level", "expected"),
    [
        (logging.CRITICAL, 2),
        (logging.ERROR, 3),
        (logging.WARNING, 4),
        (logging.INFO, 6),
        (logging.DEBUG, 7),
        (25, 4),
    ],
)
def test_levels_map_to_syslog_priorities(level: int, expected: int) -> None:
    assert priority(level) == expected


def test_journal_lines_carry_the_priority_on_every_line_and_no_timestamp() -> None:
    text = JournalFormatter().format(record(logging.ERROR, "login refused", exc=True))
    lines = text.splitlines()
    assert lines[0] == "<3>pbem.daemon: login refused"
    assert len(lines) > 2 and all(line.startswith("<3>") for line in lines)
    assert "ValueError: broken" in lines[-1]


def test_json_lines_are_one_object_each() -> None:
    entry = json.loads(JsonFormatter().format(record(logging.WARNING, "deferred \u00e9")))
    assert entry["level"] == "warning" and entry["priority"] == 4
    assert entry["message"] == "deferred \u00e9" and entry["logger"] == "pbem.daemon"
    assert entry["time"].endswith("+00:00")


def test_journald_is_recognised_only_by_its_own_stream(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with (tmp_path / "stderr").open("w") as stream, (tmp_path / "other").open("w") as other:
        stat = os.fstat(stream.fileno())
        monkeypatch.setenv("JOURNAL_STREAM", f"{stat.st_dev}:{stat.st_ino}")
        assert isinstance(formatter_for(LogFormat.text, stream), JournalFormatter)
        assert not isinstance(formatter_for(LogFormat.text, other), JournalFormatter)
        assert not isinstance(formatter_for(LogFormat.text, io.StringIO()), JournalFormatter)
        assert isinstance(formatter_for(LogFormat.json, stream), JsonFormatter)
        monkeypatch.delenv("JOURNAL_STREAM")
        assert not isinstance(formatter_for(LogFormat.text, stream), JournalFormatter)


def run_once_stderr(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> str:
    """`pbem run --once` on a Maildir in a child process, its stderr a file of the test's own."""
    stderr_path = tmp_path / "stderr"
    (tmp_path / "none.toml").write_text("", encoding="utf-8")  # no settings from a file
    child_env = {
        **os.environ,
        "PBEM_DATABASE_URL": f"sqlite:///{tmp_path}/pbem.sqlite3",
        "PBEM_MAILDIR": str(tmp_path / "mail"),
        "PBEM_CONFIG": str(tmp_path / "none.toml"),
        **(env or {}),
    }
    # A stranger's LIST gets an answer, so there is a line to log.
    (tmp_path / "mail").mkdir(exist_ok=True)
    deliver(
        tmp_path / "mail",
        b"From: stranger@example.org\nTo: pbem@localhost\nSubject: games?\n"
        b"Message-ID: <list.1@example.org>\n\nLIST\n",
    )
    with stderr_path.open("w") as stderr:
        if env and env.get("JOURNAL_STREAM") == "self":
            stat = os.fstat(stderr.fileno())
            child_env["JOURNAL_STREAM"] = f"{stat.st_dev}:{stat.st_ino}"
        subprocess.run(
            [sys.executable, "-m", "pbem", "run", "--once", *args],
            env=child_env,
            stderr=stderr,
            stdout=subprocess.DEVNULL,
            check=True,
            cwd=tmp_path,
            timeout=60,
        )
    return stderr_path.read_text()


def test_run_under_journald_logs_priorities_without_timestamps(tmp_path: Path) -> None:
    lines = run_once_stderr(tmp_path, env={"JOURNAL_STREAM": "self"}).splitlines()
    assert lines and all(line.startswith(("<6>", "<4>", "<3>", "<7>")) for line in lines)
    assert not any(line[3:7].isdigit() for line in lines)  # no "2026-..." after the prefix


def test_run_with_json_logs_one_object_a_line(tmp_path: Path) -> None:
    lines = run_once_stderr(tmp_path, "--log-format", "json").splitlines()
    entries = [json.loads(line) for line in lines]
    assert entries and {"time", "level", "priority", "logger", "message"} <= set(entries[0])


def test_run_logs_what_it_did_and_not_alembics_context(tmp_path: Path) -> None:
    first = run_once_stderr(tmp_path)
    assert "sent" in first and "alembic" not in first
    again = run_once_stderr(tmp_path)  # the same LIST again, already answered
    assert "handled before" in again and "alembic" not in again
