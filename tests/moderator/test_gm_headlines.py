"""Each game-master override heads its letters with what it did, to players and watchers alike
(play-testing: a deadline change and an undo both came as "The game master changed the
game"); that headline is only the fallback now."""

from __future__ import annotations

import pytest

from pbem.moderator import gm
from pbem.moderator import undo as undoing
from pbem.moderator.gm_letters import CHANGED
from pbem.orders.format import order_text
from pbem.orders.incoming import read_email
from tests.moderator.conftest import ANN, BO, CY, SETTINGS, Table
from tests.moderator.test_gm_told import Named, run

WATCHER = "fan@example.net"


@pytest.fixture
def sm(db_engine) -> Named:
    game = Named(db_engine, "showmanager", [(ANN, "Ann"), (BO, "Bo")], first_player=ANN)
    game.mail(WATCHER, f"WATCH {game.id}", to=SETTINGS.address, subject="watch")
    return game


@pytest.fixture
def bt(db_engine) -> Named:
    game = Named(db_engine, "bigtime", [(ANN, "Ann"), (BO, "Bo"), (CY, "Cy")])
    game.mail(WATCHER, f"WATCH {game.id}", to=SETTINGS.address, subject="watch")
    return game


def headlines(game: Table, command, *args) -> dict[str, str]:
    """Each address's subject of the letters `command` sent, after the game id."""
    count = len(game.outbox())
    run(game, command, *args)
    subjects = {}
    for row in game.outbox()[count:]:
        subject = read_email(row.raw).subject
        assert subject.startswith(f"[{game.id}] ") and CHANGED not in subject, subject
        subjects[row.to_address] = subject.removeprefix(f"[{game.id}] ")
    return subjects


def test_a_deadline_change_says_so_to_players_and_watchers(bt):
    told = headlines(bt, gm.deadline, 24.0, None, None)
    phase = "Round 1 · Phase 1"
    assert told == {who: f"Deadline changed · {phase}" for who in (ANN, BO, CY, WATCHER)}
    told = headlines(bt, gm.deadline, None, None, "no hurry")
    assert set(told.values()) == {f"Deadline removed · {phase}"}


def test_an_undo_says_the_game_moved_back_and_where_to(bt):
    for player in (ANN, BO, CY):
        assert bt.mail(player, "BID 0").status == "accepted"
    told = headlines(bt, undoing.undo, None, "misclick")
    # The subject's phase is the one gone back to: "Game moved back · Round 1 · Phase 1".
    assert told == {who: "Game moved back · Round 1 · Phase 1" for who in (ANN, BO, CY, WATCHER)}


def test_orders_entered_for_a_player_name_the_player_or_tell_them_it_was_theirs(bt, sm):
    told = headlines(bt, gm.order, "Bo", "BID 0", "asked by phone")
    assert told == {
        ANN: "Orders entered for Bo · Round 1 · Phase 1",
        BO: "Orders entered for you · Round 1 · Phase 1",
        CY: "Orders entered for Bo · Round 1 · Phase 1",
    }
    # Early orders (Show Manager): Bo alone is told they wait for the turn.
    assert headlines(sm, gm.order, "Bo", "HIRE 0", None) == {
        BO: "Orders entered for you · Ann's turn"
    }


def test_money_set_is_headed_with_whose_money(sm):
    told = headlines(sm, gm.set_money, "Bo", 5, "compensation")
    assert told == {
        ANN: "Bo's money changed · Your turn",
        BO: "Your money changed · Ann's turn",
        WATCHER: "Bo's money changed · Ann's turn",
    }


def test_a_value_set_is_headed_with_whose_production(sm):
    chip = _ann_stages(sm)
    told = headlines(sm, gm.set_value, "Ann", f"{chip.musical}#{chip.number}", 1, "typo")
    assert {who: words.split(" · ")[0] for who, words in told.items()} == {
        ANN: "Your production's value changed",
        BO: "Ann's production's value changed",
        WATCHER: "Ann's production's value changed",
    }


def test_seat_changes_and_an_absence_ended_are_headed_with_the_player(bt):
    phase = "Round 1 · Phase 1"
    told = headlines(bt, gm.replace, "Bo", "bo2@example.org:Bobby", None)
    assert (told[ANN], told[CY]) == (f"Bo's seat given to Bobby · {phase}",) * 2
    assert told["bo2@example.org"].startswith("Welcome")
    told = headlines(bt, gm.remove, "Cy", None)
    assert (told[ANN], told["bo2@example.org"]) == (f"Cy removed from the game · {phase}",) * 2
    assert bt.mail(ANN, "AWAY 5 days").status == "accepted"
    told = headlines(bt, gm.back, "Ann", None)
    assert told == {ANN: f"You are back · {phase}", "bo2@example.org": f"Ann is back · {phase}"}


def _ann_stages(game: Table):
    """Default orders until Ann (seat 0) has a production on the board: its chip."""
    players = [ANN, BO]
    for _ in range(60):
        loaded = game.game()
        view = loaded.engine.view(loaded.state, None)
        chips = [chip for city in view.cities for chip in city.chips if chip.owner == 0]
        if chips:
            return chips[0]
        seat = loaded.engine.awaiting(loaded.state)[0]
        orders = order_text(loaded.engine.default_actions(loaded.state, seat))
        assert game.mail(players[seat], orders).status == "accepted"
    raise AssertionError("Ann staged nothing in 60 turns")
