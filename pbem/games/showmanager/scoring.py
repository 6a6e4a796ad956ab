"""The result: points of the slots each player's chips hold; ties go to money, then stay shared."""

from __future__ import annotations

from pbem.games.base import Outcome, Standing
from pbem.games.showmanager.board import scores
from pbem.games.showmanager.state import GameState


def outcome(state: GameState) -> Outcome:
    points = scores(state)
    standings = sorted(
        (Standing(seat, points[seat], player.money) for seat, player in enumerate(state.players)),
        key=lambda s: (-s.score, -s.money, s.seat),
    )
    first = standings[0]
    tied = len(standings) > 1 and (standings[1].score, standings[1].money) == (
        first.score,
        first.money,
    )
    return Outcome(tuple(standings), None if tied else first.seat)
