"""Events told per reader through the moderator: card names stay whole, every public action of a
split turn reaches the others, moves made for a player say so, and HISTORY and the game master's
notices name players, never their addresses or the seed."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta

from sqlmodel import Session

from pbem.daemon.deadlines import run_deadlines
from pbem.moderator import gm
from pbem.moderator.bots import answer_bot_mail
from pbem.moderator.desk import Desk
from pbem.moderator.loaded import load_game, save_state
from pbem.moderator.seats import HISTORY_LENGTH
from pbem.orders.incoming import read_email
from pbem.store import OutboxRow, append_history, session_scope, utc_now
from tests.moderator.conftest import ANN, BO, SETTINGS, Table
from tests.showmanager.sm_tables import WOLF_24, force_stage
from tests.support.letters import letter_text


def _text(row: OutboxRow) -> str:
    return f"{read_email(row.raw).subject}\n{letter_text(row.raw)}"


def _statuses(game: Table, address: str) -> list[str]:
    """The status emails `address` got: a reply to its own order that moved the game carries
    its status too."""
    return [
        _text(r) for r in game.outbox() if r.to_address == address and r.kind in ("status", "reply")
    ]


def _sm(table: Callable[..., Table], **options: object) -> Table:
    """Ann and Bo by name, so names and addresses differ in every email."""
    return table("showmanager", [f"{ANN}:Ann", f"{BO}:Bo"], seed=7, first_player=ANN, **options)


def test_a_provincial_player_card_keeps_its_name_in_every_email(table):
    game = _sm(table, setup={"deck": [109, 110]})
    assert game.mail(ANN, "HIRE 0").status == "accepted"
    game.mail(BO, "HIRE 0")
    told = [_text(row) for row in game.outbox()]
    mentions = [text for text in told if "#109" in text]
    assert len(mentions) >= 3  # the welcome's agency, Ann's reply, both statuses
    for text in mentions:
        assert "Provincial Ann" not in text and "Provincial Bo" not in text
        assert all(
            len(re.findall(r"#109\s+Provincial Player 1\b", line)) == line.count("#109")
            for line in text.splitlines()
        )
    assert any(
        "Ann hired #109 Provincial Player 1 from slot 0" in text for text in _statuses(game, BO)
    )
    assert any(
        "You hired #109 Provincial Player 1 from slot 0" in text for text in _statuses(game, ANN)
    )


def test_a_split_turns_loan_and_refresh_reach_the_others_next_status(table):
    game = _sm(table)
    with session_scope(game.engine) as session:
        loaded = load_game(session, game.id)
        state = loaded.engine.load(loaded.engine.dump(loaded.state))
        force_stage(state, 0, "Wolf", WOLF_24, "Hamburg")
        state.turn = 0
        save_state(session, loaded, state, actor="gm", kind="gm", summary="set up for a test")
    before = len(_statuses(game, BO))
    assert game.mail(ANN, "LOAN WOLF 3").status == "accepted"
    assert game.mail(ANN, "REFRESH").status == "accepted"
    assert len(_statuses(game, BO)) == before  # the turn goes on: no status yet
    assert game.mail(ANN, "HIRE 0").status == "accepted"
    news = _statuses(game, BO)[-1]
    assert "Ann borrowed 3 points on Wolf#1, now worth 21" in news
    assert "Ann refreshed the agency for 2, discarding #" in news
    assert "Ann hired #" in news
    assert news.index("Ann borrowed") < news.index("Ann refreshed") < news.index("Ann hired")
    assert "Ann received" not in news and "Ann paid" not in news  # her money stays hers
    own = _statuses(game, ANN)[-1]
    assert "You borrowed 3 points" in own and "You received 3 and have" in own


def test_deadline_defaults_are_told_as_the_moderators_to_everyone(table):
    game = table("bigtime", [f"{ANN}:Ann", f"{BO}:Bo"], seed=3, deadline_hours=24, policy="default")
    assert game.mail(ANN, "BID 3 2").status == "accepted"
    later = utc_now() + timedelta(hours=25)
    assert run_deadlines(game.engine, SETTINGS, lambda: later, None) == 1
    # Long lines are wrapped: read as words.
    bo, ann = (" ".join(_statuses(game, who)[-1].split()) for who in (BO, ANN))
    assert (
        "The deadline passed without your orders; the moderator played the default orders for you:"
        in bo
    )
    assert "Your order for round 1, phase 1 is on file: bid nothing" in bo
    # What follows is what the moderator's order did: the bids revealed, the acts booked.
    assert (
        "The deadline passed without Bo's orders; the moderator played the default orders for Bo:"
        in ann
    )
    assert "Bo's order for round" not in ann
    # Ann's own order, sent by email, is hers; the bids are revealed to both.
    assert "Your order for round 1, phase 1 is on file: bid 3 2 ($5)" in ann
    assert "the bids are revealed: you 3 2 ($5); Bo nothing" in ann


def test_deadline_skips_are_told_as_such(table):
    game = _sm(table, deadline_hours=24, policy="skip")
    later = utc_now() + timedelta(hours=25)
    assert run_deadlines(game.engine, SETTINGS, lambda: later, None) == 1
    ann, bo = _statuses(game, ANN)[-1], _statuses(game, BO)[-1]
    assert "The deadline passed without your orders; the game goes on without them:" in ann
    assert "You missed the deadline; the turn passes." in ann
    assert "The deadline passed without Ann's orders; the game goes on without them:" in bo
    assert "Ann missed the deadline; the turn passes." in bo


def test_a_history_heading_says_whether_it_goes_back_to_the_start(table):
    game = _sm(table)
    game.mail(ANN, "HISTORY")
    assert "History (from the start, 1 entry):" in _text(game.outbox()[-1])
    with session_scope(game.engine) as session:
        state = load_game(session, game.id).row.state
        for _ in range(HISTORY_LENGTH):
            append_history(session, game.id, actor="gm", kind="gm", summary="", state_after=state)
    game.mail(ANN, "HISTORY")
    text = _text(game.outbox()[-1])
    assert f"History (the last {HISTORY_LENGTH} entries):" in text
    assert "Welcome to Show Manager game" not in text  # the start is one entry too many


def test_history_and_notices_name_players_and_never_show_the_seed_or_addresses(table):
    game = _sm(table)
    game.mail(ANN, "HIRE 0")
    game.mail(BO, "HIRE 0\nHISTORY")
    history = _text(game.outbox()[-1])
    assert "History (from the start, 3 entries)" in history
    assert "seed" not in history.lower() and ANN not in history
    assert "Welcome to Show Manager game" in history and "Ann, Bo (you)" in history
    assert "Ann: HIRE 0" not in history and "Ann hired #" in history
    assert "You: HIRE 0\n    - You hired #" in history  # what it did, under the lines
    mark = len(game.outbox())
    with session_scope(game.engine) as session:
        gm.set_money(Desk(session, SETTINGS), game.id, BO, 40, "a correction")
        gm.remove(Desk(session, SETTINGS), game.id, BO, None)
    notices = [_text(r) for r in game.outbox()[mark:] if r.to_address == ANN]
    assert any("The game master changed Bo's money." in text for text in notices)
    assert all("40" not in text.split("Why:")[0] for text in notices if "money" in text)
    assert any(
        "The game master removed Bo from the game; a computer player takes over" in text
        for text in notices
    )
    assert all(BO not in text for text in notices)
    with Session(game.engine) as session:
        # The money changed Bo's board: he is told in a fresh status.
        bo_told = [r for r in game.outbox()[mark:] if r.to_address == BO]
        assert any("The game master set your money to 40." in _text(r) for r in bo_told)
        assert load_game(session, game.id).seat(1).kind == "bot"


def test_a_computer_players_moves_are_told_as_the_computers(table):
    game = _sm(table)
    with session_scope(game.engine) as session:
        gm.remove(Desk(session, SETTINGS), game.id, BO, None)
    game.mail(ANN, "HIRE 0")
    answer_bot_mail(game.engine, SETTINGS, utc_now)
    news = _statuses(game, ANN)[-1]
    assert re.search(r"Bo \(computer\) (hired|refreshed|borrowed|staged)", news), news
    assert "Bo (computer) (computer)" not in news


def test_history_entries_from_before_events_were_kept_show_only_who_acted(table):
    game = _sm(table)
    with session_scope(game.engine) as session:
        state = load_game(session, game.id).row.state
        for actor, kind in ((BO, "order"), ("gm", "gm"), ("mail", "system")):
            append_history(
                session,
                game.id,
                actor=actor,
                kind=kind,  # type: ignore[arg-type]
                summary=f"old words naming {BO}, seed 528257501",
                state_after=state,
            )
    game.mail(ANN, "HISTORY")
    history = _text(game.outbox()[-1])
    assert "Bo: sent orders" in history
    assert "The game master: changed the game" in history
    assert "The moderator: noted a change to the game" in history
    assert BO not in history and "528257501" not in history


def test_a_computer_player_started_with_bot_has_the_label_of_one_that_took_a_seat(table):
    """`--bot Robby` seats "Robby (computer)", as a seat the computer takes after RESIGN is
    "Bo (computer)": players read one label, never "(bot)"."""
    game = table("bigtime", [f"{ANN}:Ann", f"{BO}:Bo"], bots=("Robby",), seed=3)
    welcome = _statuses(game, ANN)[0]
    assert "Robby (computer)" in welcome and "(bot)" not in welcome
    assert "(computer) (computer)" not in welcome
    assert game.mail(BO, "RESIGN").status == "accepted"
    assert [seat.name for seat in game.game().seats] == ["Ann", "Bo (computer)", "Robby (computer)"]


def test_a_game_stored_with_a_bot_label_still_reads_it_once(table):
    game = table("bigtime", [f"{ANN}:Ann", f"{BO}:Bo"], bots=("Robby",), seed=3)
    _rename(game, 2, "Robby (bot)")  # as `--bot Robby` named the seat before
    game.mail(ANN, "HISTORY")
    history = _text(game.outbox()[-1])
    assert "Players: Ann (you), Bo, Robby (bot)." in history
    assert "(bot) (computer)" not in history


def _rename(game: Table, seat: int, name: str) -> None:
    with session_scope(game.engine) as session:
        row = load_game(session, game.id).seat(seat)
        row.name = name
        session.add(row)


EVE = "eve@example.org"


def _replaced(table: Callable[..., Table]) -> tuple[Table, int]:
    """Ann and Bo hire once each, the game master sets Ann's money and gives Bo's seat to Eve;
    returns the game and how many emails were sent before the seat changed hands."""
    game = _sm(table)
    assert game.mail(ANN, "HIRE 0").status == "accepted"
    assert game.mail(BO, "HIRE 0").status == "accepted"
    with session_scope(game.engine) as session:
        gm.set_money(Desk(session, SETTINGS), game.id, ANN, 40, "a correction")
    sent = len(game.outbox())
    with session_scope(game.engine) as session:
        gm.replace(Desk(session, SETTINGS), game.id, "2", f"{EVE}:Eve", "test")
    return game, sent


def _history_of(game: Table, address: str) -> str:
    assert game.mail(address, "HISTORY").status == "accepted"
    text = _text(game.outbox()[-1])
    return text[text.index("History (") :]


def test_history_names_a_seats_earlier_holder_as_the_seat_was_held_then(table):
    game, _ = _replaced(table)
    for reader in (EVE, ANN):
        history = _history_of(game, reader)
        assert "A former player" not in history, history
        assert re.search(r"\d\d:\d\d  Bo hired #", history), history
        assert "Eve hired" not in history and BO not in history


def test_history_names_a_player_who_resigned_or_was_removed_not_a_former_player(table):
    game = table("showmanager", [f"{ANN}:Ann", f"{BO}:Bo", "cy@example.org:Cy"], seed=7)
    for _ in range(3):
        loaded = game.game()
        turn = loaded.seat(loaded.engine.awaiting(loaded.state)[0]).address
        assert game.mail(turn, "HIRE 0").status == "accepted"
    assert game.mail(BO, "RESIGN").status == "accepted"
    with session_scope(game.engine) as session:
        gm.remove(Desk(session, SETTINGS), game.id, "cy@example.org", None)
    history = _history_of(game, ANN)
    assert "A former player" not in history, history
    assert "  Bo hired #" in history and "  Cy hired #" in history
    assert "Bo left the game; a computer player takes over the seat." in history
    # Each left on their turn, which the computer player then played at once, as its own.
    bo_left, cy_left = history.index("Bo left the game"), history.index("removed Cy")
    assert "(computer) hired" not in history[:bo_left]
    assert "Cy (computer) hired" not in history[:cy_left]


def test_history_of_two_seats_that_changed_hands_names_each_earlier_holder(table):
    # Found in play-testing: after a second seat changed hands, every earlier holder's line
    # read "A former player: Bo hired ...". Each hire is its seat's own act, so it tells whose.
    game, _ = _replaced(table)
    with session_scope(game.engine) as session:
        gm.replace(Desk(session, SETTINGS), game.id, "1", "fay@example.org:Fay", None)
    history = _history_of(game, EVE)
    assert "A former player" not in history, history
    assert re.search(r"\d\d:\d\d  Ann hired #", history), history
    assert re.search(r"\d\d:\d\d  Bo hired #", history), history
    assert not re.search(r"(Eve|Fay|You):? .*hired", history), history
    assert ANN not in history and BO not in history


def test_history_names_the_game_master_once(table):
    game, _ = _replaced(table)
    history = _history_of(game, EVE)
    assert "The game master: The game master" not in history
    assert "The game master changed Ann's money. (why: a correction)" in history
    assert "Bo: Bo" not in history


def test_the_password_is_at_the_end_of_the_welcome_not_of_history(table):
    game, sent = _replaced(table)
    [welcome] = [" ".join(_text(r).split()) for r in game.outbox()[sent:] if r.to_address == EVE]
    assert "with a password of its own (at the end of this email)." in welcome
    history = " ".join(_history_of(game, EVE).split())  # long lines are wrapped: read as words
    assert (
        "You take over the seat of Bo: the game master gave it to you, with a password of its"
        in history
    )
    assert "at the end of this email" not in history
