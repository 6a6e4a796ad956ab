"""Each game-master command: it changes what it says, is in the history with its reason, and the
players are told."""

from __future__ import annotations

import json

import pytest
from sqlmodel import Session

from pbem.moderator import gm
from pbem.moderator.bots import answer_bot_mail
from pbem.moderator.desk import Desk
from pbem.store import (
    OutboxRow,
    due_outbox_ids,
    last_history,
    session_scope,
    utc_now,
    waiting_orders,
)
from tests.moderator.conftest import ANN, BO, SETTINGS, Table
from tests.support.letters import letter_text


def run(game: Table, command, *args):
    with session_scope(game.engine) as session:
        return command(Desk(session, SETTINGS), game.id, *args)


def last_entry(game: Table):
    with Session(game.engine) as session:
        return last_history(session, game.id, 1)[-1]


def told(game: Table, since: int) -> set[str]:
    return {r.to_address for r in game.outbox()[since:] if r.kind in ("gm", "status")}


@pytest.fixture
def sm(table) -> Table:
    return table("showmanager", [ANN, BO], seed=11, first_player=ANN)


def test_gm_order_plays_for_the_player_on_turn(sm):
    sent = len(sm.outbox())
    run(sm, gm.order, ANN, "HIRE 0", "Ann is travelling")
    assert sm.game().engine.awaiting(sm.game().state) == (1,)
    entry = last_entry(sm)
    assert (entry.actor, entry.kind, entry.why) == ("gm", "gm", "Ann is travelling")
    assert told(sm, sent) == {ANN, BO}


def test_gm_order_for_a_player_not_on_turn_waits_for_the_turn(sm):
    # Issue 11: the game master can queue an early order where a player can (turn-based games).
    run(sm, gm.order, BO, "HIRE 0", "Bo is travelling")
    assert sm.game().engine.awaiting(sm.game().state) == (0,)
    sm.mail(ANN, "HIRE 0")
    assert sm.game().engine.awaiting(sm.game().state) == (0,)  # Bo's order was carried out
    entry = last_entry(sm)
    assert (entry.actor, entry.kind) == ("gm", "gm") and entry.summary.startswith("orders for")


def test_gm_undo_restores_the_state_before_the_last_order(sm):
    start = sm.game().row.state
    sm.mail(ANN, "HIRE 0")
    assert sm.game().row.state != start
    run(sm, gm.undo, None, "misclick")
    assert json.loads(sm.game().row.state) == json.loads(start)
    assert last_entry(sm).summary.startswith("undo to entry 1 (")


def waiting(game: Table) -> list[tuple[str, str]]:
    with Session(game.engine) as session:
        return [(row.lines, row.status) for row in waiting_orders(session, game.id)]


def test_gm_undo_sets_aside_early_orders_kept_after_the_entry_it_goes_back_to(sm):
    # Found in play-testing: undo said "orders given after that no longer count", and the turn
    # then played an early order given after that.
    start = last_entry(sm).seq
    assert sm.mail(BO, "REFRESH").status == "queued"
    run(sm, gm.set_money, ANN, 30, "after Bo's early email")
    after_it = last_entry(sm).seq
    run(sm, gm.set_money, ANN, 31, "later")
    run(sm, gm.undo, after_it, "back to after Bo's early email")
    assert waiting(sm) == [("REFRESH", "waiting")]  # given before that entry: it still counts

    run(sm, gm.undo, start, "back to before it")
    assert waiting(sm) == []
    sm.mail(ANN, "HIRE 0")
    assert sm.game().engine.awaiting(sm.game().state) == (1,)  # Bo's turn waits for his email


def test_gm_early_orders_take_the_place_of_the_players_waiting_ones(sm):
    assert sm.mail(BO, "REFRESH").status == "queued"
    run(sm, gm.order, BO, "HIRE 0", "Bo asked by phone")
    assert waiting(sm) == [("HIRE 0", "waiting")]
    assert last_entry(sm).summary.endswith(
        "kept for their turn, in place of those waiting (REFRESH)"
    )


def test_gm_set_money_changes_only_that_players_money(sm):
    run(sm, gm.set_money, BO, 5, "compensation")
    view = sm.game().engine.view(sm.game().state, None)
    assert [p.money for p in view.players] == [36, 5]
    assert last_entry(sm).why == "compensation"


def test_gm_set_value_reranks_the_chip(sm):
    loaded = sm.game()
    engine = loaded.engine
    for _ in range(40):  # play until Ann has a production on the board
        loaded = sm.game()
        view = engine.view(loaded.state, None)
        if any(chip.owner == 0 for city in view.cities for chip in city.chips):
            break
        seat = engine.awaiting(loaded.state)[0]
        run(sm, gm.order, [ANN, BO][seat], _stage_or_hire(engine, loaded.state, seat), None)
    chip = next(c for city in view.cities for c in city.chips if c.owner == 0)
    run(sm, gm.set_value, ANN, f"{chip.musical}#{chip.number}", 1, "typo")
    view = engine.view(sm.game().state, None)
    assert any(c.value == 1 and c.owner == 0 for city in view.cities for c in city.chips)
    # A production not meant by one name is refused with the ones to choose from: never "#None".
    named, ann, bo = f"{chip.musical}#{chip.number}", *sm.game().names
    for production, choices in (
        ("freudy", f"there is no musical called freudy: choose one of .*{chip.musical}"),
        (f"{chip.musical}#9", f"{ann} has no {chip.musical}#9 on the board: choose {named}"),
    ):
        with pytest.raises(gm.GmError, match=choices):
            run(sm, gm.set_value, ANN, production, 2, None)
    with pytest.raises(gm.GmError, match=f"{bo} has no production of {chip.musical} on the board"):
        run(sm, gm.set_value, BO, chip.musical, 2, None)


def _stage_or_hire(engine, state, seat) -> str:
    from pbem.orders.format import order_text

    return order_text(engine.default_actions(state, seat))


def test_gm_replace_gives_the_seat_a_new_address_and_secret(sm):
    old_secret = sm.secret(BO)
    run(sm, gm.replace, BO, "bo@new.example", "new job")
    seat = sm.game().seat(1)
    assert seat.address == "bo@new.example" and seat.secret != old_secret
    assert sm.outbox()[-1].to_address == "bo@new.example"


def test_gm_remove_hands_the_seat_to_a_computer_player_who_answers_its_mail(sm):
    run(sm, gm.remove, BO, "left the hobby")
    seat = sm.game().seat(1)
    assert seat.kind == "bot" and seat.address.endswith("@bots.invalid")
    sm.mail(ANN, "HIRE 0")
    assert sm.game().engine.awaiting(sm.game().state) == (1,)
    assert answer_bot_mail(sm.engine, SETTINGS, utc_now).answered >= 1
    assert sm.game().engine.awaiting(sm.game().state) == (0,)
    with Session(sm.engine) as session:
        due = [session.get(OutboxRow, row_id) for row_id in due_outbox_ids(session)]
        assert all(row is not None and row.to_address != seat.address for row in due)


def test_gm_pause_stops_orders_and_resume_takes_them_again(sm):
    run(sm, gm.pause, "holidays")
    assert sm.mail(ANN, "HIRE 0").status == "rejected"
    assert "paused" in letter_text(sm.outbox()[-1].raw)
    run(sm, gm.pause, "back", True)
    assert sm.mail(ANN, "HIRE 0").status == "accepted"


def test_gm_resend_sends_the_status_again(sm):
    sent = len(sm.outbox())
    run(sm, gm.resend, BO, "lost it")
    assert [r.to_address for r in sm.outbox()[sent:]] == [BO]
    assert last_entry(sm).why == "lost it"


def test_gm_deadline_is_recorded(sm):
    run(sm, gm.deadline, 48.0, "default", "speed up")
    row = sm.game().row
    assert row.deadline_hours == 48.0 and row.policy == "default" and row.deadline_at
