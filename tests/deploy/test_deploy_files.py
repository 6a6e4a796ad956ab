"""The deployment files: the systemd unit's sandbox as systemd-analyze scores it, and what the
container build leaves out of its image."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "deploy" / "pbem.service"
EXPOSURE = re.compile(r"Overall exposure level for pbem\.service: (\d+\.\d+)")
MAX_EXPOSURE = 3.0


def unit_settings() -> dict[str, list[str]]:
    settings: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        if "=" in line and not line.startswith("#"):
            key, _, value = line.partition("=")
            settings.setdefault(key.strip(), []).append(value.strip())
    return settings


def test_systemd_analyze_scores_the_unit_below_3() -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed")
    result = subprocess.run(
        [analyze, "security", "--offline=yes", "--no-pager", str(UNIT)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    found = EXPOSURE.search(result.stdout + result.stderr)
    assert found is not None, result.stdout + result.stderr
    assert float(found.group(1)) < MAX_EXPOSURE


def test_the_unit_is_notify_with_a_watchdog_a_private_umask_and_no_gm_of_its_own() -> None:
    settings = unit_settings()
    assert settings["Type"] == ["notify"] and settings["WatchdogSec"]
    assert settings["UMask"] == ["0077"] and settings["StateDirectory"] == ["pbem"]
    assert all("--gm" not in command for command in settings["ExecStart"])
    # A failing `config check` before each start would log in on every restart.
    assert "ExecStartPre" not in settings


def ignored(path: str, patterns: list[str]) -> bool:
    """Docker's and podman's rule: a path is left out when it or a folder above it matches."""
    parts = path.split("/")
    candidates = ["/".join(parts[: n + 1]) for n in range(len(parts))]
    return any(re.fullmatch(_regex(pattern), c) for pattern in patterns for c in candidates)


def _regex(pattern: str) -> str:
    text = re.escape(pattern.strip("/"))
    return text.replace(r"\*\*/", "(?:.*/)?").replace(r"\*", "[^/]*")


def ignore_patterns(name: str) -> list[str]:
    lines = (ROOT / name).read_text().splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


@pytest.mark.parametrize("name", [".dockerignore", ".containerignore"])
@pytest.mark.parametrize(
    "path",
    [
        "pbem.toml",
        "deploy/local/pbem.toml",
        ".git/config",
        "pbem.sqlite3",
        "data/pbem.sqlite3-wal",
        "pbem-mail/new/1700000000.eml",
        "pbem-demo.sqlite3",
        ".venv/bin/python",
        "venv/lib/python3.11/site.py",
        "pbem/__pycache__/settings.cpython-311.pyc",
        "prod.env",
    ],
)
def test_the_build_context_leaves_out_secrets_history_state_and_venvs(name: str, path: str) -> None:
    assert ignored(path, ignore_patterns(name))


@pytest.mark.parametrize(
    "path",
    [
        "pyproject.toml",
        "pbem/cli/main.py",
        "pbem/games/bigtime/data/bigtime.toml",
        "deploy/pbem.toml.example",
        "templates/reply.txt.j2",
        "README.md",
    ],
)
def test_the_build_context_keeps_what_pip_install_needs(path: str) -> None:
    assert not ignored(path, ignore_patterns(".dockerignore"))


def test_both_ignore_files_say_the_same() -> None:
    assert (ROOT / ".dockerignore").read_text() == (ROOT / ".containerignore").read_text()


def test_the_container_checks_its_health_with_pbem_status() -> None:
    containerfile = (ROOT / "deploy" / "Containerfile").read_text()
    assert re.search(r'^HEALTHCHECK .*CMD \["pbem", "status"\]$', containerfile, re.MULTILINE)
