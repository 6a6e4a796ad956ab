"""Computer players who move at once when only they are awaited (`moderator/computers.py`)."""

from __future__ import annotations

from pbem.moderator.bots import answer_bot_mail
from pbem.orders.incoming import read_email
from pbem.store import utc_now
from tests.moderator.conftest import ANN, BO, SETTINGS
from tests.support.letters import letter_text


def test_the_people_get_one_status_when_a_computer_is_the_last_awaited(table):
    # Found in play-testing: Ann was sent "Waiting for orders from: Robby (computer)", and the
    # next phase's status a moment later, once Robby had answered its mail.
    game = table("bigtime", [f"{ANN}:Ann", f"{BO}:Bo"], bots=("Robby",), seed=3)
    start = len(game.outbox())
    assert game.mail(ANN, "BID 0").status == "accepted"
    assert game.mail(BO, "BID 0").status == "accepted"
    state = game.game().state
    assert (state.round, state.phase) == (1, 2)  # Robby bid at once, and the phase resolved
    to_ann = [row for row in game.outbox()[start:] if row.to_address == ANN]
    assert [read_email(row.raw).subject for row in to_ann] == [
        f"[{game.id}] Round 1 · Phase 1",  # the reply to her bid: Bo and Robby still to bid
        f"[{game.id}] Round 1 · Phase 2",
    ]
    assert "Waiting for orders from: Robby (computer)." not in letter_text(to_ann[-1].raw)
    # By mail Robby answers its phase-2 status alone: its phase-1 one is out of date.
    assert answer_bot_mail(game.engine, SETTINGS, utc_now).answered == 1
    assert game.game().engine.awaiting(game.game().state) == (0, 1)


def test_a_game_of_computers_alone_still_plays_by_mail(table):
    game = table("bigtime", [], bots=("Robby", "Ruth"), seed=3)
    assert game.game().state.round == 1 and game.game().state.phase == 1
    assert answer_bot_mail(game.engine, SETTINGS, utc_now).answered >= 2
