"""The game master's reason reaches the players as every override's does, and there is none when
none was given (play-testing: `gm order --why` was never told in the statuses of the phase the
orders resolved, and `gm remove` without `--why` showed "(why: removed by the game master)" in
every player's HISTORY)."""

from __future__ import annotations

from collections.abc import Callable

from sqlmodel import Session

from pbem.moderator import gm
from pbem.moderator.desk import Desk
from pbem.store import last_history, session_scope
from tests.moderator.conftest import ANN, BO, CY, SETTINGS, Table
from tests.support.letters import letter_text

PLAYERS = [f"{ANN}:Ann", f"{BO}:Bo", f"{CY}:Cy"]
REASON = "The game master's reason: Ann phoned her bid"


def run(game: Table, command: Callable[..., object], *args: object) -> object:
    with session_scope(game.engine) as session:
        return command(Desk(session, SETTINGS), game.id, *args)


def newest_to(game: Table, address: str) -> str:
    """The newest letter to `address`, on one line."""
    row = [r for r in game.outbox() if r.to_address == address][-1]
    return " ".join(letter_text(row.raw).split())


def test_the_statuses_of_a_phase_the_game_masters_orders_resolved_tell_the_reason(table) -> None:
    game = table("bigtime", PLAYERS, seed=3)
    for player in (BO, CY):
        assert game.mail(player, "BID 0").status == "accepted"
    before = len(game.outbox())
    run(game, gm.order, "Ann", "BID 0", "Ann phoned her bid")
    statuses = [r for r in game.outbox()[before:] if r.kind == "status"]
    assert {r.to_address for r in statuses} == {ANN, BO, CY}  # the phase resolved
    for row in statuses:
        text = " ".join(letter_text(row.raw).split())
        assert REASON in text, row.to_address
    # Ann's newest email, the status, says why as well as what was entered for her.
    assert "The game master entered orders for you" in newest_to(game, ANN)
    assert REASON in newest_to(game, ANN)


def test_orders_that_end_no_phase_are_told_with_the_reason_in_the_notice(table) -> None:
    game = table("bigtime", PLAYERS, seed=3)
    run(game, gm.order, "Ann", "BID 0", "Ann phoned her bid")
    for player in (ANN, BO, CY):
        assert "Why: Ann phoned her bid" in newest_to(game, player)


def test_remove_without_a_reason_records_none(table) -> None:
    game = table("bigtime", PLAYERS, seed=3)
    change = run(game, gm.remove, "Cy", None)
    assert change.why is None  # type: ignore[attr-defined]
    with Session(game.engine) as session:
        assert last_history(session, game.id, 1)[-1].why is None
    game.mail(ANN, "HISTORY")
    history = newest_to(game, ANN)
    assert "The game master removed Cy from the game; a computer player" in history
    assert "(why:" not in history and "removed by the game master)" not in history


def test_remove_with_a_reason_records_it(table) -> None:
    game = table("bigtime", PLAYERS, seed=3)
    change = run(game, gm.remove, "Cy", "Cy moved abroad")
    assert change.why == "Cy moved abroad"  # type: ignore[attr-defined]
    game.mail(ANN, "HISTORY")
    assert "(why: Cy moved abroad)" in newest_to(game, ANN)
