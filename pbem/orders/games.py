"""Choosing a game's grammar by the game's name, with its variant, data file and phase codes."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from pbem.orders.bigtime import big_time_grammar
from pbem.orders.errors import OrdersError
from pbem.orders.grammar import Grammar
from pbem.orders.showmanager import show_manager_grammar
from pbem.orders.vocabulary import big_time_vocabulary, show_manager_vocabulary

ACTS_FILE = "bigtime_acts.csv"


def grammar_for(
    game: str,
    variant: str = "standard",
    data_file: Path | None = None,
    codes: Mapping[str, str] | None = None,
) -> Grammar:
    """The orders of `game` ("showmanager" or "bigtime").

    `data_file` is the GM's component data (`pbem start --data FILE`); for The Big Time! the act
    ids come from that CSV, or from the `bigtime_acts.csv` beside that TOML. `codes` are the short
    codes of the phase an email answers (The Big Time! only).
    """
    if game == "showmanager":
        return show_manager_grammar(show_manager_vocabulary(data_file, variant))
    if game == "bigtime":
        return big_time_grammar(big_time_vocabulary(_acts_file(data_file)), codes)
    raise OrdersError(f"unknown game {game!r}: choose showmanager or bigtime")


def _acts_file(data_file: Path | None) -> Path | None:
    if data_file is None or data_file.suffix.lower() == ".csv":
        return data_file
    beside = data_file.with_name(ACTS_FILE)
    return beside if beside.exists() else None
