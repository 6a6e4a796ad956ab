"""Where a game stands, as REPLAY.md's JSON tells it: shared by `pbem replay`, `pbem show --json`
and the archive's transcript (its `expect`)."""

from __future__ import annotations

from typing import Any

from pbem.moderator.loaded import LoadedGame


def standings(game: LoadedGame, keys: list[str] | None = None) -> dict[str, Any]:
    """finished, winner, scores, money and board as REPLAY.md defines them, each seat keyed by
    `keys` (default: its address now)."""
    emails = keys or [seat.address for seat in game.seats]
    finished = game.engine.is_over(game.state)
    outcome = game.engine.outcome(game.state)
    ordered = sorted(outcome.standings, key=lambda standing: standing.seat)
    return {
        "finished": finished,
        "winner": emails[outcome.winner] if finished and outcome.winner is not None else None,
        "scores": {emails[s.seat]: s.score for s in ordered},
        "money": {emails[s.seat]: s.money for s in ordered},
        "board": _board(game, emails),
    }


def _board(game: LoadedGame, emails: list[str]) -> dict[str, Any]:
    """Show Manager: each city's chips from the top; The Big Time!: each act type's space."""
    view = game.engine.view(game.state, None)
    if game.row.game == "bigtime":
        return {marker.act_type: marker.space for marker in view.chart}
    musical = {m.name: m.shown for m in view.musicals}
    return {
        city.shown: [
            {
                "owner": "touring" if chip.owner is None else emails[chip.owner],
                "musical": musical[chip.musical],
                "value": chip.value,
            }
            for chip in city.chips
        ]
        for city in view.cities
    }
