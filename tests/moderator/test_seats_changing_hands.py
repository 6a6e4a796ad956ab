"""Seats changing hands, message in and outbox out (play-testing, whole games by email): a
RESIGN is told to everyone at once, as a `gm replace` is, one email each with the board; the
person who left hears where the game stands whenever they write, and (having resigned) who won;
and nothing sent to someone who can no longer order asks for orders."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from pbem.moderator import gm
from pbem.moderator.desk import Desk
from pbem.orders.format import order_text
from pbem.orders.incoming import parse_message, read_email
from pbem.orders.quotes import ORDERS_ABOVE_MARK
from pbem.store import OutboxRow, session_scope
from tests.moderator.conftest import ANN, BO, CY, SETTINGS, Table
from tests.support.letters import letter_text

DEE = "dee@example.org"
FAN = "fan@example.net"
# What only a status email shows: the reader's own private section.
HAND = "-- Your hand (private) --"


def _sm(table: Callable[..., Table]) -> Table:
    game = table("showmanager", [f"{ANN}:Ann", f"{BO}:Bo", f"{DEE}:Dee"], seed=7, first_player=ANN)
    game.mail(FAN, f"WATCH {game.id}", to=SETTINGS.address, subject="watch")
    return game


def _bt(table: Callable[..., Table]) -> Table:
    return table("bigtime", [f"{ANN}:Ann", f"{BO}:Bo", f"{CY}:Cy"], seed=3)


def _sent(game: Table, since: int) -> dict[str, list[OutboxRow]]:
    """The letters sent since `since`, by address."""
    letters: dict[str, list[OutboxRow]] = {}
    for row in game.outbox()[since:]:
        letters.setdefault(row.to_address, []).append(row)
    return letters


def _subject(row: OutboxRow) -> str:
    return read_email(row.raw).subject


def _html(row: OutboxRow) -> str:
    html = parse_message(row.raw).get_body(("html",))  # type: ignore[attr-defined]
    assert html is not None
    return str(html.get_content())


def _gm(game: Table, command, *args) -> None:
    with session_scope(game.engine) as session:
        command(Desk(session, SETTINGS), game.id, *args)


def _old_address(game: Table, who: str) -> str:
    """The reply address `who` answers while they hold their seat (their mail client keeps it)."""
    return SETTINGS.address.replace("@", f"+{game.id}.{game.secret(who)}@")


def _play_to_the_end(game: Table) -> None:
    """The people's default orders until the game is over (computer players move at once)."""
    for _ in range(200):
        loaded = game.game()
        if loaded.engine.is_over(loaded.state):
            return
        awaited = loaded.engine.awaiting(loaded.state)
        seat = next(s for s in awaited if loaded.seat(s).kind == "human")
        orders = order_text(loaded.engine.default_actions(loaded.state, seat))
        phase = loaded.kind.phase(loaded.state, seat, loaded.names)
        subject = f"Re: [{game.id}] {phase}"
        assert game.mail(loaded.seat(seat).address, orders, subject=subject).status == "accepted"
    raise AssertionError("the game did not end")


def test_a_resignation_by_email_is_told_to_everyone_at_once_with_the_talk_beside_it(table):
    # Found in play-testing: Dee's SAY and RESIGN during Bo's turn reached Ann and Bo as a talk
    # notice alone; that a computer player took her seat came only in Ann's next turn.
    game = _sm(table)
    assert game.mail(ANN, "HIRE 0").status == "accepted"  # Bo's turn
    since = len(game.outbox())
    assert game.mail(DEE, "SAY sorry folks, I have to leave\nRESIGN").status == "accepted"
    sent = _sent(game, since)
    for reader, turn in ((ANN, "Bo's turn"), (BO, "Your turn")):
        [letter] = sent[reader]  # one email each: the talk and the news together
        assert letter.kind == "status"
        assert _subject(letter) == f"[{game.id}] Dee left the game · {turn}"
        text = " ".join(letter_text(letter.raw).split())
        assert "Dee left the game; a computer player takes over the seat." in text
        assert "Dee says: sorry folks, I have to leave" in text  # her name then, not the computer's
        assert HAND in letter_text(letter.raw)  # the board and the reader's own hand
    assert "It is your move." in letter_text(sent[BO][0].raw)
    [watched] = sent[FAN]
    watched_text = letter_text(watched.raw)
    assert "Dee says: sorry folks" in watched_text and "Dee left the game" in watched_text
    # Her own answer says she left and what she said, as hers.
    [answer] = sent[DEE]
    text = " ".join(letter_text(answer.raw).split())
    assert "You left the game" in text and "You said to everyone: sorry folks" in text
    # Told once: Bo's move tells Ann the hire, not the resignation again.
    since = len(game.outbox())
    assert game.mail(BO, "HIRE 0").status == "accepted"
    [after] = _sent(game, since)[ANN]
    assert "left the game" not in letter_text(after.raw)


def test_resigning_on_ones_own_turn_lets_the_computer_play_it_at_once(table):
    game = _sm(table)
    since = len(game.outbox())
    assert game.mail(ANN, "RESIGN").status == "accepted"
    loaded = game.game()
    assert loaded.engine.awaiting(loaded.state) == (1,)  # the computer played Ann's turn
    sent = _sent(game, since)
    [letter] = sent[BO]
    assert _subject(letter) == f"[{game.id}] Ann left the game · Your turn"
    # The person who left is told nothing of the computer player's move for the seat.
    [answer] = sent[ANN]
    assert "Ann (computer)" not in letter_text(answer.raw)
    assert "hired" not in letter_text(answer.raw)


@pytest.mark.parametrize("verb", ["replace", "remove"])
def test_a_seat_the_game_master_changes_is_told_with_the_status_to_players_and_watchers(
    table, verb
):
    # Found in play-testing: Bo, whose turn it was, got "The game master changed the game ·
    # Your turn" with no board, hand, money or deadline.
    game = _sm(table)
    assert game.mail(ANN, "HIRE 0").status == "accepted"  # Bo's turn
    since = len(game.outbox())
    if verb == "replace":
        _gm(game, gm.replace, "Dee", "cy@example.org:Cy", "Dee moved abroad")
    else:
        _gm(game, gm.remove, "Dee", "Dee moved abroad")
    sent = _sent(game, since)
    [bo] = sent[BO]
    assert bo.kind == "status" and _subject(bo).endswith(" · Your turn")
    text = letter_text(bo.raw)
    assert HAND in text and "It is your move." in text and "Dee moved abroad" in text
    [ann] = sent[ANN]
    assert ann.kind == "status" and HAND in letter_text(ann.raw)
    [watched] = sent[FAN]
    assert "Dee" in letter_text(watched.raw) and "Dee moved abroad" in letter_text(watched.raw)
    # Told once: not again in the status after Bo's move.
    since = len(game.outbox())
    assert game.mail(BO, "HIRE 0").status == "accepted"
    assert "Dee's seat" not in letter_text(_sent(game, since)[ANN][0].raw)
    assert "removed Dee" not in letter_text(_sent(game, since)[ANN][0].raw)


@pytest.mark.parametrize("how", ["RESIGN", "remove"])
def test_the_computer_player_taking_a_seat_is_not_told_it_left(table, how):
    game = _bt(table)
    since = len(game.outbox())
    if how == "RESIGN":
        assert game.mail(CY, "RESIGN").status == "accepted"
    else:
        _gm(game, gm.remove, "Cy", None)
    computer = game.game().seat(2).address
    [letter] = _sent(game, since)[computer]
    text = letter_text(letter.raw)
    assert "left the game" not in text and "removed you" not in text
    # The goodbye is the person's alone.
    goodbye = letter_text(_sent(game, since)[CY][-1].raw)
    assert "You left the game" in goodbye or "removed you from the game" in goodbye


def test_a_player_who_resigned_gets_the_final_result_and_hears_where_the_game_stands(table):
    # Found in play-testing: Cy resigned; the final result went to everyone else, and Cy's
    # STATUS was answered only "You no longer play in bt-1: you resigned on ...".
    game = _bt(table)
    old = {who: _old_address(game, who) for who in (BO, CY)}
    secrets = {CY: game.secret(CY)}
    assert game.mail(CY, "RESIGN").status == "accepted"
    _gm(game, gm.replace, "Bo", "bo2@example.org:Bea", None)
    # While it runs: where it stands, and how to watch it.
    since = len(game.outbox())
    assert game.mail(CY, "STATUS", to=old[CY], subject="Re: my game").status == "rejected"
    [answer] = _sent(game, since)[CY]
    text = " ".join(letter_text(answer.raw).split())
    assert f"Game {game.id} goes on (round 1, phase 1)." in text
    assert f"write WATCH {game.id} to {SETTINGS.address}" in text
    since = len(game.outbox())
    _play_to_the_end(game)
    sent = _sent(game, since)
    # Who resigned is sent the final result, as a watcher reads it; who was replaced is not.
    [result] = sent[CY]
    assert _subject(result) == f"[{game.id}] Final result" and result.kind == "former"
    text = letter_text(result.raw)
    assert "Final standings:" in text and f"ARCHIVE {game.id}" in text
    assert BO not in sent and "bo2@example.org" in sent
    seats = game.game().seats
    for secret in (*secrets.values(), *(seat.secret for seat in seats)):
        assert secret not in text
    for private in ("(private", "Your hand", "It is your move", "password"):
        assert private.lower() not in text.lower()
    # Once it is over: who won, and how to get the whole game.
    standings = game.game().engine.outcome(game.game().state).standings
    winner = game.game().name_of(standings[0].seat)
    for who in (CY, BO):
        since = len(game.outbox())
        assert game.mail(who, "STATUS", to=old[who], subject="Re: x").status == "rejected"
        [answer] = _sent(game, since)[who]
        text = " ".join(letter_text(answer.raw).split())
        assert f"Game {game.id} is over: {winner} won with {standings[0].score} points." in text
        assert f"write ARCHIVE {game.id} to {SETTINGS.address}" in text
        assert "WATCH" not in text and "password" not in text.lower()


def test_a_former_players_letters_have_the_games_subject_and_no_mark_line(table):
    # Found in play-testing: after a replace, Cy's HIRE 0 to an old email was answered "Re:
    # [sm-1] The game master changed the game · Ann's turn" (his own subject echoed), and it
    # and the goodbye began "-- write your orders above this line --".
    game = table("showmanager", [f"{ANN}:Ann", f"{BO}:Bo", f"{CY}:Cy"], seed=7, first_player=ANN)
    old = _old_address(game, CY)
    since = len(game.outbox())
    _gm(game, gm.replace, "Cy", f"{DEE}:Dee", "Cy moved abroad")
    [goodbye] = _sent(game, since)[CY]
    stale = f"Re: [{game.id}] The game master changed the game · Ann's turn"
    since = len(game.outbox())
    assert game.mail(CY, "HIRE 0", to=old, subject=stale).status == "rejected"
    [answer] = _sent(game, since)[CY]
    gone = f"[{game.id}] You no longer play in this game"
    for letter in (goodbye, answer):
        assert _subject(letter) == gone
        text = letter_text(letter.raw)
        assert ORDERS_ABOVE_MARK not in text and ORDERS_ABOVE_MARK not in _html(letter)
        assert text.startswith(f"Show Manager {game.id}: You no longer play in this game\n")
        assert "no longer counts as orders" in text
    # A former player's mail is never orders, whatever it quotes: the goodbye pasted whole,
    # with no quote header (nor mark line) to stop the reading, under HIRE 0 to the old
    # address, or to the bare address as a reply to the goodbye (which has no Reply-To).
    before = game.game().row.state
    pasted = f"HIRE 0\n\n{letter_text(goodbye.raw)}"
    for to in (old, SETTINGS.address):
        result = game.mail(CY, pasted, to=to, subject=f"Re: {gone}")
        assert result.status == "rejected"
    assert game.game().row.state == before


def test_the_answer_to_resign_asks_for_nothing_and_says_what_comes(table):
    game = _bt(table)
    since = len(game.outbox())
    assert game.mail(CY, "RESIGN").status == "accepted"
    [answer] = _sent(game, since)[CY]
    text = letter_text(answer.raw)
    assert ORDERS_ABOVE_MARK not in text and ORDERS_ABOVE_MARK not in _html(answer)
    assert "write your orders" not in _html(answer)
    words = " ".join(text.split())
    assert "When the game ends, you will be sent its final result." in words
    assert f"write WATCH {game.id} to {SETTINGS.address}" in words


def test_resign_in_a_finished_game_is_refused(table):
    game = _bt(table)
    _play_to_the_end(game)
    seats = [(seat.kind, seat.address) for seat in game.game().seats]
    assert game.mail(CY, "RESIGN").status == "rejected"
    assert "the game is over, so there is no seat to leave" in letter_text(game.outbox()[-1].raw)
    assert [(seat.kind, seat.address) for seat in game.game().seats] == seats
