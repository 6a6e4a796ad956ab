"""How `pbem run` logs: plain lines with a timestamp on a terminal; under journald (systemd's
$JOURNAL_STREAM names our stderr) no timestamp, the journal has one, and a syslog priority
prefix (`<3>` for errors) so `journalctl -p err` finds them; or one JSON object a line
(`--log-format json`) for log collectors."""

from __future__ import annotations

import json
import logging
import os
import sys
from collections.abc import Mapping
from datetime import UTC, datetime
from enum import StrEnum
from typing import TextIO


class LogFormat(StrEnum):
    text = "text"
    json = "json"


# syslog(3) priorities; Python has no NOTICE, so INFO is 6.
PRIORITIES = {
    logging.CRITICAL: 2,
    logging.ERROR: 3,
    logging.WARNING: 4,
    logging.INFO: 6,
    logging.DEBUG: 7,
}
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def priority(level: int) -> int:
    """The syslog priority of a logging level (a custom level takes the next one up's)."""
    return next((PRIORITIES[known] for known in sorted(PRIORITIES) if level <= known), 2)


class JournalFormatter(logging.Formatter):
    """`<P>name: message`, every line of a traceback with the same prefix: journald reads the
    priority per line."""

    def format(self, record: logging.LogRecord) -> str:
        prefix = f"<{priority(record.levelno)}>"
        text = f"{record.name}: {record.getMessage()}"
        if record.exc_info:
            text += "\n" + self.formatException(record.exc_info)
        return "\n".join(prefix + line for line in text.splitlines())


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(),
            "level": record.levelname.lower(),
            "priority": priority(record.levelno),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


def under_journald(stream: TextIO, env: Mapping[str, str] | None = None) -> bool:
    """Whether `stream` is the journal's: $JOURNAL_STREAM is "device:inode" of systemd's socket,
    and a child with our environment but another stderr must not take it for its own."""
    expected = (os.environ if env is None else env).get("JOURNAL_STREAM", "")
    try:
        stat = os.fstat(stream.fileno())
    except (OSError, ValueError):  # no file descriptor (a test's capture): not the journal
        return False
    return expected == f"{stat.st_dev}:{stat.st_ino}"


def formatter_for(log_format: LogFormat, stream: TextIO) -> logging.Formatter:
    if log_format is LogFormat.json:
        return JsonFormatter()
    if under_journald(stream):
        return JournalFormatter()
    return logging.Formatter(TEXT_FORMAT)


def configure_logging(level: int, log_format: LogFormat, stream: TextIO | None = None) -> None:
    """The root logger writes to `stream` (stderr) in the chosen format, unless it has been
    given handlers already (by a program embedding pbem, or a test runner)."""
    stream = stream or sys.stderr
    handler = logging.StreamHandler(stream)
    handler.setFormatter(formatter_for(log_format, stream))
    logging.basicConfig(level=level, handlers=[handler])
    logging.getLogger("alembic.runtime.migration").addFilter(_alembic_context_notice)


def _alembic_context_notice(record: logging.LogRecord) -> bool:
    """Alembic tells of its database context each time pbem reads the schema revision (every
    command's start); only what it upgrades is news to a game master."""
    return not str(record.msg).startswith(("Context impl", "Will assume"))
