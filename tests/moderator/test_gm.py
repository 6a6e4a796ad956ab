"""Each game-master command: it changes what it says, is in the history with its reason, and the
players are told."""

from __future__ import annotations

import json

import pytest
from sqlmodel import Session

from pbem.moderator import gm
from pbem.moderator import undo as undoing
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


def test_gm_early_order_no_turn_could_take_is_refused_at_once(sm):
    with pytest.raises(gm.GmError, match="can never be carried out: there is no card #999"):
        run(sm, gm.order, BO, "HIRE #999", None)
    with Session(sm.engine) as session:
        assert waiting_orders(session, sm.id, 1) == []


def test_gm_undo_restores_the_state_before_the_last_order(sm):
    start = sm.game().row.state
    run(sm, gm.set_money, ANN, 30, "a slip")
    assert sm.game().row.state != start
    run(sm, undoing.undo, None, "misclick")
    # Nothing hidden was shown: the state is the one before, deck order and all.
    assert json.loads(sm.game().row.state) == json.loads(start)
    assert last_entry(sm).summary == f"undo to entry 1 ({sm.game().names[0]}'s turn)"


def test_gm_undo_goes_back_past_the_computer_players_orders_to_before_the_last_persons(table):
    # Found in play-testing: a plain undo took back Robby's order alone, which Robby gave again
    # at once; everyone was told the game moved back, and nothing had changed.
    game = table("showmanager", [f"{ANN}:Ann"], bots=("Robby",), seed=4)
    assert game.mail(ANN, "HIRE 0").status == "accepted"  # Robby's turn is played at once
    assert last_entry(game).actor.endswith("@bots.invalid")
    run(game, undoing.undo, None, "misclick")
    assert last_entry(game).summary.startswith("undo to entry 1 (Ann's turn)")
    assert game.game().state.turn == 0


def _deck_apart(state: str) -> tuple[dict, list[int]]:
    """A saved Show Manager state without its deck and generator, and the deck."""
    data = json.loads(state)
    del data["rng"]
    return data, data.pop("deck")


def test_gm_undo_after_a_draw_shuffles_the_deck_again(sm):
    # Found in play-testing: the undone hire had shown the deck's next cards, and after the
    # undo the same cards came out in the same order.
    start = sm.game().row.state
    sent = len(sm.outbox())
    assert sm.mail(ANN, "HIRE 0").status == "accepted"
    shown = json.loads(sm.game().row.state)["display"][-1]  # the deck's top card came out
    run(sm, undoing.undo, None, "misclick")
    (rest, deck), (rest_before, deck_before) = _deck_apart(sm.game().row.state), _deck_apart(start)
    assert rest == rest_before and sorted(deck) == sorted(deck_before) and deck != deck_before
    assert "shuffled again" in last_entry(sm).summary
    letters = [r for r in sm.outbox()[sent:] if "moved the game back" in letter_text(r.raw)]
    assert {r.to_address for r in letters} == {ANN, BO}
    for row in letters:
        told = " ".join(letter_text(row.raw).split())  # long lines are wrapped: read as words
        assert "The cards nobody had seen yet were shuffled again" in told
        assert f"#{deck[-1]} " not in letter_text(row.raw)  # never the new top card
    assert sm.mail(ANN, "HIRE 0").status == "accepted"
    assert json.loads(sm.game().row.state)["display"][-1] != shown


def test_gm_undo_over_a_revealed_phase_takes_back_every_bid(table):
    # Found in play-testing: only the seat whose bid was undone was awaited again, and it bid
    # knowing everyone else's revealed bids.
    bt = table("bigtime", [ANN, BO, "cy@example.org"], seed=5)
    for address in (ANN, BO):
        assert bt.mail(address, "BID 3").status == "accepted"
    face_down = bt.game().state.coming_pm
    sent = len(bt.outbox())
    assert bt.mail("cy@example.org", "BID 2").status == "accepted"
    revealed = bt.game().state.pm_row  # the face-down Troupers, turned up in phase 2
    assert revealed == face_down
    run(bt, undoing.undo, None, "Cy mistyped")
    game = bt.game()
    assert game.state.phase == 1 and game.engine.awaiting(game.state) == (0, 1, 2)
    assert set(game.state.coming_pm) != set(revealed)
    assert "every bid taken back" in last_entry(bt).summary
    letters = [r for r in bt.outbox()[sent:] if "moved the game back" in letter_text(r.raw)]
    assert {r.to_address for r in letters} == {ANN, BO, "cy@example.org"}
    for row in letters:
        text = " ".join(letter_text(row.raw).split())
        assert "The bids of round 1, phase 1 were revealed, so every bid is taken back" in text
        assert not any(card in text for card in game.state.coming_pm)


def test_an_email_answering_a_phase_an_undo_took_back_is_told_so_not_that_it_resolved(table):
    # Found in play-testing: "which has already been resolved" of a phase the undo took back.
    bt = table("bigtime", [ANN, BO], seed=5)
    for address in (ANN, BO):
        assert bt.mail(address, "BID 3").status == "accepted"
    phase_two = bt.latest_subject(ANN)
    assert phase_two is not None and "Round 1 · Phase 2" in phase_two
    run(bt, undoing.undo, None, "Bo mistyped")
    refused = bt.mail(ANN, "BID 0", subject=phase_two)
    assert refused.status == "rejected"
    assert refused.reason.startswith(
        "this email answers round 1, phase 2, which the game master's undo took back; "
        "the game is now at round 1, phase 1"
    )


def test_gm_undo_does_not_tell_what_it_took_back_as_standing(table):
    # Found in play-testing: the undo's status told Ann "Your order for round 1, phase 1 is on
    # file", from the entry the undo took back, just above "moved the game back".
    bt = table("bigtime", [ANN, BO, "cy@example.org"], seed=5)
    assert bt.mail(ANN, "BID 3").status == "accepted"
    sent = len(bt.outbox())
    run(bt, undoing.undo, None, "Ann asked")
    [letter] = [r for r in bt.outbox()[sent:] if r.to_address == ANN]
    text = " ".join(letter_text(letter.raw).split())
    assert "moved the game back" in text
    assert "is on file" not in text and "Sealed bid: none on file" in text


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
    run(sm, undoing.undo, after_it, "back to after Bo's early email")
    assert waiting(sm) == [("REFRESH", "waiting")]  # given before that entry: it still counts

    run(sm, undoing.undo, start, "back to before it")
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
    engine = sm.game().engine
    _, chip = _until_ann_stages(sm, [ANN, BO])
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


def test_gm_set_value_names_musicals_as_a_premiere_games_boards_do(table):
    # Found in play-testing: "no production of Queenie" and "choose one of Wolf, ..." in a game
    # whose every board shows Freudi, Miss Hanoi, Die Miserablen and Katz.
    players = [ANN, BO, "cy@example.org", "dee@example.org"]
    premiere = table("showmanager", players, variant="premiere", seed=11, first_player=ANN)
    ann = premiere.game().names[0]
    # Either theme's name, in any case, spaced or not (ORDERS.md), means the same musical.
    for written in ("Miss Hanoi", "MISSHANOI", "miss-hanoi", "Queenie", "queenie "):
        with pytest.raises(gm.GmError, match=f"^{ann} has no production of Miss Hanoi on the"):
            run(premiere, gm.set_value, ANN, written, 5, None)
    with pytest.raises(
        gm.GmError, match=r"choose one of Freudi, Miss Hanoi, Die Miserablen, Katz$"
    ):
        run(premiere, gm.set_value, ANN, "Atlantis", 5, None)
    engine = premiere.game().engine
    loaded, chip = _until_ann_stages(premiere, players)
    # The view names musicals by their standard names; the boards by the premiere ones.
    shown = {m.name: m.premiere_name for m in loaded.state.data.musicals}[chip.musical]
    with pytest.raises(
        gm.GmError, match=f"no {shown}#9 on the board: choose {shown}#{chip.number}$"
    ):
        run(premiere, gm.set_value, ANN, f"{chip.musical}#9", 5, None)
    run(premiere, gm.set_value, ANN, f"{shown.lower()} # {chip.number}", 1, None)
    view = engine.view(premiere.game().state, None)
    assert any(c.value == 1 and c.owner == 0 for city in view.cities for c in city.chips)


def _until_ann_stages(table, players):
    """Plays default orders until Ann (seat 0) has a production on the board: the game then,
    and that production's chip."""
    from pbem.orders.format import order_text

    for _ in range(60):
        loaded = table.game()
        view = loaded.engine.view(loaded.state, None)
        chips = [chip for city in view.cities for chip in city.chips if chip.owner == 0]
        if chips:
            return loaded, chips[0]
        seat = loaded.engine.awaiting(loaded.state)[0]
        orders = order_text(loaded.engine.default_actions(loaded.state, seat))
        run(table, gm.order, players[seat], orders, None)
    raise AssertionError("Ann staged nothing in 60 turns")


def test_gm_replace_gives_the_seat_a_new_address_and_secret(sm):
    old_secret = sm.secret(BO)
    run(sm, gm.replace, BO, "bo@new.example", "new job")
    seat = sm.game().seat(1)
    assert seat.address == "bo@new.example" and seat.secret != old_secret
    assert sm.outbox()[-1].to_address == "bo@new.example"


def test_gm_remove_hands_the_seat_to_a_computer_player_who_plays_its_turns(sm):
    run(sm, gm.remove, BO, "left the hobby")
    seat = sm.game().seat(1)
    assert seat.kind == "bot" and seat.address.endswith("@bots.invalid")
    sm.mail(ANN, "HIRE 0")
    # Its turn, when only it is awaited, is played at once (`computers.py`): Ann's reply shows
    # her next turn, and the computer's mail has nothing left to answer.
    assert sm.game().engine.awaiting(sm.game().state) == (0,)
    assert last_entry(sm).actor == seat.address and last_entry(sm).kind == "order"
    assert answer_bot_mail(sm.engine, SETTINGS, utc_now).answered == 0
    with Session(sm.engine) as session:
        due = [session.get(OutboxRow, row_id) for row_id in due_outbox_ids(session)]
        assert all(row is not None and row.to_address != seat.address for row in due)


def test_gm_pause_stops_orders_and_resume_takes_them_again(sm):
    run(sm, gm.pause, "holidays")
    assert sm.mail(ANN, "HIRE 0").status == "rejected"
    assert "paused" in letter_text(sm.outbox()[-1].raw)
    run(sm, gm.pause, "back", True)
    assert sm.mail(ANN, "HIRE 0").status == "accepted"


def test_an_email_to_a_paused_game_is_told_what_the_rules_say_of_it_too(table):
    # Found in play-testing: told only of the pause, Bo learnt of his wrong HOOK after resume.
    bt = table("bigtime", [ANN, BO], seed=5)
    run(bt, gm.pause, "holidays")
    refused = bt.mail(BO, "BID 9 9\nAM A1")
    assert refused.status == "rejected"
    assert refused.reason.startswith('line 1 "BID 9 9": ')
    assert "you cannot bid 9 9" in refused.reason
    assert refused.reason.endswith("once you are told it has resumed")


def test_gm_resend_sends_the_status_again(sm):
    sent = len(sm.outbox())
    run(sm, gm.resend, BO, "lost it")
    assert [r.to_address for r in sm.outbox()[sent:]] == [BO]
    assert last_entry(sm).why == "lost it"


def test_gm_deadline_is_recorded(sm):
    run(sm, gm.deadline, 48.0, "default", "speed up")
    row = sm.game().row
    assert row.deadline_hours == 48.0 and row.policy == "default" and row.deadline_at
