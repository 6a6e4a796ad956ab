"""How refusals and example orders write money cards."""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=4096)
def cards_text(cards: tuple[int, ...]) -> str:
    """Money cards as a player writes them: `3 3 1`, or `0` for none."""
    return " ".join(map(str, cards)) if cards else "0"


def money_text(cards: tuple[int, ...]) -> str:
    """Money cards and their sum, for a refusal: `3 3 1 ($7)`, or `nothing`."""
    return f"{cards_text(cards)} (${sum(cards)})" if cards else "nothing"
