"""How events and refusals name players and money."""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=16)
def player(seat: int) -> str:
    return f"Player {seat + 1}"


@lru_cache(maxsize=4096)
def cards_text(cards: tuple[int, ...]) -> str:
    """Money cards as a player writes them: `3 3 1`, or `0` for none."""
    return " ".join(map(str, cards)) if cards else "0"


@lru_cache(maxsize=4096)
def money_text(cards: tuple[int, ...]) -> str:
    """Money cards and their sum: `3 3 1 ($7)`, or `nothing`."""
    return f"{cards_text(cards)} (${sum(cards)})" if cards else "nothing"
