"""The command line as a game master runs it: `main` in-process (fast), or the installed `pbem`
console script in a subprocess, each in a temporary folder with its own SQLite database."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from pbem.cli import main
from pbem.settings import KEYS

SCRIPT = shutil.which("pbem", path=str(Path(sys.executable).parent)) or "pbem"


@dataclass(frozen=True)
class Ran:
    code: int
    out: str
    err: str


Pbem = Callable[..., Ran]


@pytest.fixture
def cli_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """A folder of the test's own, a database in it and no other pbem setting."""
    monkeypatch.chdir(tmp_path)
    for key in (*KEYS, "PBEM_CONFIG"):
        monkeypatch.delenv(key, raising=False)
    env = {"PBEM_DATABASE_URL": f"sqlite:///{tmp_path}/pbem.sqlite3"}
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    return env


@pytest.fixture
def pbem(cli_env: dict[str, str], capsys: pytest.CaptureFixture[str]) -> Pbem:
    """`pbem ARGS...` in-process, through the console script's own `main`."""

    def run(*args: str, env: dict[str, str] | None = None) -> Ran:
        saved = {key: os.environ.get(key) for key in env or {}}
        os.environ.update(env or {})
        try:
            main(list(args))
            code = 0
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else 1
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value
        captured = capsys.readouterr()
        return Ran(code, captured.out, captured.err)

    return run


@pytest.fixture
def pbem_script(cli_env: dict[str, str], tmp_path: Path) -> Pbem:
    """The installed `pbem` console script in a subprocess."""

    def run(*args: str, env: dict[str, str] | None = None) -> Ran:
        clean = {k: v for k, v in os.environ.items() if k not in KEYS and k != "PBEM_CONFIG"}
        done = subprocess.run(
            [SCRIPT, *args],
            cwd=tmp_path,
            env={**clean, **cli_env, **(env or {})},
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        return Ran(done.returncode, done.stdout, done.stderr)

    return run
