"""The result: points of the slots each player's chips hold; ties go to money, then stay shared."""

from __future__ import annotations

from pbem.games.base import Outcome, Standing
from pbem.games.showmanager.board import scores
from pbem.games.showmanager.names import seat_name
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


def result_text(result: Outcome) -> str:
    """The final result as told to everyone (money included, for the tie-break)."""
    lines = ", ".join(
        f"{seat_name(s.seat)} {s.score} points ({s.money} money)" for s in result.standings
    )
    if result.winner is None:
        return f"The game is over: {lines}. There is no single winner: the top is tied."
    first, second = result.standings[0], result.standings[1]
    how = " on money" if first.score == second.score else ""
    return f"The game is over: {lines}. {seat_name(result.winner)} wins{how}."
