"""Counts in words: "1 player", "2 players". Play-testing read "1 players told" and "1 of 3-4
seats are taken" in the game master's notices, and "the 1 players signed up" in the players'."""

from __future__ import annotations


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """`number` and the noun, singular for one: `counted(1, "player")` is "1 player",
    `counted(3, "player")` "3 players"; `plural` for a noun that takes no plain -s."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"


def are(number: int) -> str:
    """The verb after a count: "1 of 4 seats is taken", "2 of 4 seats are taken"."""
    return "is" if number == 1 else "are"
