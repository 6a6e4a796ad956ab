"""Whole numbers as a game master types them on the command line, held to a range there.

Typer takes any whole number, however long; one past the database's 64 bits would end in an
OverflowError traceback at the first query, so a command bounds its numbers before using them.
"""

from __future__ import annotations

import typer

from pbem.store.tables import LARGEST_INTEGER


def in_range(name: str, number: int, lowest: int, highest: int = LARGEST_INTEGER) -> int:
    """`number` when it is from `lowest` to `highest`; else one line naming it and the range,
    and exit 2 (a usage error)."""
    if not lowest <= number <= highest:
        typer.echo(
            f"Error: {name} {number}: write a whole number from {lowest} to {highest}", err=True
        )
        raise typer.Exit(2)
    return number
