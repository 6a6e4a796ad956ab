"""What the moderator must know of each game beyond the engine protocol.

Show Manager is turn-based: an order sent out of turn waits for the turn. The Big Time! is
simultaneous: an email answers one phase, named in its subject, and is stale once that phase has
resolved.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

_ROUND_PHASE = re.compile(r"round\s*(\d+)\s*\W*\s*phase\s*(\d+)", re.IGNORECASE)


@dataclass(frozen=True)
class GameKind:
    game: str
    title: str
    turn_based: bool

    def progress(self, state: Any) -> str:
        """A key that changes exactly when the game moves on for everybody."""
        if self.game == "bigtime":
            return str(state.phase_key)
        hands = sum(len(player.hand) for player in state.players)
        staged = sum(sum(player.staged) for player in state.players)
        return f"{state.turn}:{hands}:{staged}"

    def codes(self, engine: Any, state: Any) -> Mapping[str, str] | None:
        return engine.codes(state) if self.game == "bigtime" else None

    def answered_phase(self, subject: str) -> str | None:
        """The phase an email says it answers (`Round 2 · Phase 1` -> r2p1), if it says."""
        if self.game != "bigtime":
            return None
        match = _ROUND_PHASE.search(subject or "")
        return f"r{int(match[1])}p{int(match[2])}" if match else None

    def status_subject(self, state: Any, seat: int, awaiting: tuple[int, ...]) -> str:
        if self.game == "bigtime":
            return f"Round {state.round} · Phase {state.phase}"
        return "Your turn" if seat in awaiting else "Status"


KINDS = {
    "showmanager": GameKind("showmanager", "Show Manager", turn_based=True),
    "bigtime": GameKind("bigtime", "The Big Time!", turn_based=False),
}
