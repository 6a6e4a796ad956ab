"""Headless Chromium, to open a page as a reader's browser would: a screenshot and the DOM."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

BROWSER = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(
    BROWSER is None, reason="chromium is not installed (.ci/install-chromium installs it)"
)
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--window-size=1200,3000"]


def screenshot(page: Path, png: Path) -> None:
    assert BROWSER is not None
    done = subprocess.run(
        [BROWSER, *FLAGS, f"--screenshot={png}", page.as_uri()],
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert png.exists() and png.stat().st_size > 10_000, done.stderr.decode()[-2000:]


def rendered_dom(page: Path) -> str:
    """The page's DOM after Chromium loaded it."""
    assert BROWSER is not None
    done = subprocess.run(
        [BROWSER, *FLAGS, "--dump-dom", page.as_uri()],
        capture_output=True,
        timeout=120,
        check=True,
    )
    return done.stdout.decode()
