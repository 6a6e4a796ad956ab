"""Linux's /proc as tests and benchmarks read it: each process's state, parent, group and
processor time, from `/proc/PID/stat` (fields after the command's closing parenthesis, which
may itself hold spaces and parentheses)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

PROC = Path("/proc")


@dataclass(frozen=True)
class ProcStat:
    pid: int
    state: str
    """"R", "S", ..., "Z" for a zombie: ended, its exit status not yet reaped."""
    parent: int
    group: int
    cpu_seconds: float
    """User and system time so far."""

    @property
    def ended(self) -> bool:
        return self.state == "Z"


def proc_stat(pid: int) -> ProcStat | None:
    """The process's stat, or None when there is no such process (any more)."""
    try:
        fields = (PROC / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    ticks = int(fields[11]) + int(fields[12])  # utime, stime: fields 14 and 15 of stat
    return ProcStat(
        pid, fields[0], int(fields[1]), int(fields[2]), ticks / os.sysconf("SC_CLK_TCK")
    )


def all_proc_stats() -> Iterator[ProcStat]:
    """Every process's stat, skipping those that end while they are read."""
    for entry in PROC.iterdir():
        if entry.name.isdigit() and (stat := proc_stat(int(entry.name))) is not None:
            yield stat


def command_line(pid: int) -> bytes:
    """The process's arguments, NUL-separated; empty when it is gone."""
    try:
        return (PROC / str(pid) / "cmdline").read_bytes()
    except OSError:
        return b""
