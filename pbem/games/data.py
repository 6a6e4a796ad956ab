"""Reading component data: package files by default, a game master's own file when given."""

from __future__ import annotations

import csv
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any


def package_file(game: str, name: str) -> Path:
    """The path of a data file shipped with a game's engine (pbem/games/<game>/data/<name>)."""
    return Path(str(resources.files(f"pbem.games.{game}").joinpath("data", name)))


def read_toml(path: Path) -> dict[str, Any]:
    with path.open("rb") as handle:
        return tomllib.load(handle)


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))
