"""Counting what pbem asks of the database: statements by kind, ORM flushes, and commits.

Counts do not depend on the machine's load, unlike times: they show whether a change cut work
even when the timings of two runs cannot be compared. `StatementCount(engine)` listens to the
engine's events while `counting` is True; `top()` names the most frequent statements.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from sqlalchemy import Engine, event
from sqlalchemy.orm import Session


class StatementCount:
    """Statements (by their first word), flushes (of any session: the benchmark has pbem's
    alone) and commits run on `engine` while `counting`."""

    def __init__(self, engine: Engine) -> None:
        self.counting = False
        self.kinds: Counter[str] = Counter()
        self.texts: Counter[str] = Counter()
        self.commits = 0
        self.flushes = 0
        event.listen(engine, "before_cursor_execute", self._statement)
        event.listen(engine, "commit", self._commit)
        event.listen(Session, "after_flush", self._flush)

    def _statement(self, _conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if self.counting:
            self.kinds[statement.split(None, 1)[0].upper()] += 1
            self.texts[" ".join(statement.split())[:160]] += 1

    def _commit(self, _conn: Any) -> None:
        if self.counting:
            self.commits += 1

    def _flush(self, _session: Any, _context: Any) -> None:
        if self.counting:
            self.flushes += 1

    def per_order(self, orders: int) -> str:
        common = self.kinds.most_common()
        kinds = ", ".join(f"{kind} {count / orders:.1f}" for kind, count in common)
        total = sum(self.kinds.values())
        return (
            f"{total / orders:.1f} statements ({kinds}), {self.flushes / orders:.2f} flushes, "
            f"{self.commits / orders:.2f} commits"
        )

    def top(self, orders: int, count: int = 25) -> list[str]:
        return [f"{n / orders:6.2f}  {text}" for text, n in self.texts.most_common(count)]
