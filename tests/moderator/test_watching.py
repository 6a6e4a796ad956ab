"""Watchers, message in, outbox out: WATCH and UNWATCH to the moderator's bare address, the game
master's `gm watch` and `gm unwatch`, private and unknown games, and what a watcher is sent."""

from __future__ import annotations

from collections.abc import Callable
from email import message_from_bytes, policy
from pathlib import Path

import pytest
from sqlmodel import Session

from pbem.games.rng import Rng
from pbem.moderator import gm, watchers
from pbem.moderator import undo as undoing
from pbem.moderator.desk import Desk
from pbem.orders.format import order_text
from pbem.orders.incoming import read_email
from pbem.orders.watching import watch_request
from pbem.store import GameNotFound, OutboxRow, session_scope, watchers_of
from tests.moderator.conftest import ANN, BO, CY, SETTINGS, Table
from tests.moderator.test_signup import SignupDesk
from tests.support.letters import letter_text

WAT = "wat@example.org"
NOSY = "nosy@example.org"


def _sm(table: Callable[..., Table], **options: object) -> Table:
    return table("showmanager", [f"{ANN}:Ann", f"{BO}:Bo"], seed=7, first_player=ANN, **options)


def _ask(game: Table, sender: str, body: str, subject: str = "watching") -> OutboxRow:
    """Mail the bare address; the one answer it gets."""
    before = len(game.outbox())
    game.mail(sender, body, to=SETTINGS.address, subject=subject)
    sent = game.outbox()[before:]
    assert [row.to_address for row in sent] == [sender]
    return sent[0]


def _watching(game: Table) -> list[str]:
    with Session(game.engine) as session:
        return watchers_of(session, game.id)


def test_watch_welcomes_with_the_public_status_and_no_hand_money_or_password(table):
    game = _sm(table)
    answer = _ask(game, WAT, f"Hello!\nWATCH {game.id}\nThanks")
    assert _watching(game) == [WAT]
    text = letter_text(answer.raw)
    assert f"You are now watching Show Manager game {game.id}" in text
    assert f"UNWATCH {game.id}" in text
    assert read_email(answer.raw).subject == f"[{game.id}] Watching · Ann's turn"
    assert "Agency" in text and "Players" in text
    loaded = game.game()
    for seat in loaded.seats:
        assert seat.address not in text and seat.secret not in text
    for hand in (p.hand for p in loaded.state.players):
        for card in hand:
            assert f"#{card} " not in text.split("-- Agency")[0]
    assert "Your hand" not in text and "Hands (private" not in text
    assert "password" not in text.lower() and "It is your move" not in text
    assert "hidden" in text  # every player's money column


def test_a_watcher_gets_the_public_status_each_time_the_game_moves_on(table):
    game = _sm(table)
    _ask(game, WAT, f"WATCH {game.id}")
    before = len(game.outbox())
    assert game.mail(ANN, "HIRE 0").status == "accepted"
    sent = game.outbox()[before:]
    to_watcher = [row for row in sent if row.to_address == WAT]
    assert [row.kind for row in to_watcher] == ["watch"]
    # One email each: the watcher is never a copy on a player's letter.
    for row in sent:
        message = read_email(row.raw)
        assert message.recipients == (row.to_address,)
        if row.to_address != WAT:
            assert WAT not in row.raw.decode("utf-8", "replace")
    text = letter_text(to_watcher[0].raw)
    told = [line for line in text.splitlines() if line.startswith("  - ")]
    assert any("Ann hired" in line for line in told)
    assert not any(word in line.lower().split() for line in told for word in ("you", "your"))
    assert "Ann paid" not in text  # the payment and money left are Ann's alone


def test_unwatch_ends_it_and_says_goodbye_and_the_subject_may_name_the_game(table):
    game = _sm(table)
    _ask(game, WAT, f"WATCH [{game.id}]")
    answer = _ask(game, WAT, "UNWATCH", subject=f"Re: [{game.id}] Watching · Ann's turn")
    assert _watching(game) == []
    assert answer.kind == "watching"
    assert f"You no longer watch game {game.id}" in letter_text(answer.raw)
    before = len(game.outbox())
    game.mail(ANN, "HIRE 0")
    assert WAT not in {row.to_address for row in game.outbox()[before:]}
    again = _ask(game, WAT, f"UNWATCH {game.id}")
    assert "You are not watching a game" in letter_text(again.raw)


def test_a_private_game_and_an_unknown_one_get_the_same_polite_answer(table):
    private = _sm(table, private=True)
    answers = []
    for named in (private.id, "sm-999", "bt-1"):
        answer = _ask(private, NOSY, f"WATCH {named}")
        assert answer.kind == "watching" and answer.game_id is None
        answers.append(letter_text(answer.raw).replace(named, "GAME"))
    assert answers[0] == answers[1] == answers[2]
    assert "There is no game GAME open to watchers" in answers[0]
    assert _watching(private) == []


def test_watch_while_the_game_is_open_for_sign_up_says_it_has_not_started(db_engine):
    signup = SignupDesk(db_engine, seats="3-4")
    assert signup.mail(NOSY, f"WATCH {signup.id}", to=SETTINGS.address).status == "rejected"
    text = " ".join(signup.last_to(NOSY).split())  # long lines are wrapped: read as words
    assert f"Game {signup.id} has not started yet: it is still open for sign-up" in text
    assert f"Send WATCH {signup.id} again once it starts" in text
    assert "none of that name is running" not in text
    with session_scope(db_engine) as session, pytest.raises(watchers.WatchError, match="sign-up"):
        watchers.watch(Desk(session, SETTINGS), signup.id, NOSY)
    # A private one is refused as an unknown game is, as it will be once it starts.
    private = SignupDesk(db_engine, seats="3-4", private=True)
    private.mail(NOSY, f"WATCH {private.id}", to=SETTINGS.address)
    assert "There is no game" in private.last_to(NOSY)


def test_a_watcher_asking_history_gets_the_public_history(table):
    game = table("bigtime", [f"{ANN}:Ann", f"{BO}:Bo"], seed=3)
    _ask(game, WAT, f"WATCH {game.id}")
    assert game.mail(ANN, "BID 3 2 1\nSAY TO Bo psst\nSAY good luck").status == "accepted"
    answer = _ask(game, WAT, f"HISTORY {game.id}", subject="")
    text = letter_text(answer.raw)
    assert read_email(answer.raw).subject == f"[{game.id}] History · Round 1 · Phase 1"
    assert "History (from the start, " in text and "Ann: sent orders" in text
    assert "Ann says: good luck" in text
    assert "psst" not in text and "3 2 1" not in text and ANN not in text
    assert "To send orders" not in text and "password" not in text.lower()
    assert f"write UNWATCH {game.id} to {SETTINGS.address}" in text
    # Any other email of a watcher tells what a watcher can do.
    other = letter_text(_ask(game, WAT, "hello there", subject=f"Re: [{game.id}] x").raw)
    assert f"write HISTORY {game.id} to {SETTINGS.address}" in other
    assert "History (" not in other


def test_a_watchers_request_answered_is_stored_and_logged_as_accepted(table):
    # Play-testing: the daemon logged a watcher's HISTORY as "rejected (names no game)", though
    # the watcher was sent the history; the log prints the inbound row's status and reason.
    game = _sm(table)
    _ask(game, WAT, f"WATCH {game.id}")
    asked = game.mail(WAT, f"HISTORY {game.id}", to=SETTINGS.address, subject="hi")
    assert (asked.status, asked.reason) == ("accepted", "history sent to a watcher")
    assert asked.game_id == game.id
    status = game.mail(WAT, "STATUS", to=SETTINGS.address, subject=f"Re: [{game.id}] x")
    assert (status.status, status.reason) == ("accepted", "status sent to a watcher")
    # What else a watcher writes is answered, but nothing of it is done.
    chat = game.mail(WAT, "HIRE 0", to=SETTINGS.address, subject=f"Re: [{game.id}] x")
    assert (chat.status, chat.reason) == ("rejected", "a watcher's email is not orders")
    # A stranger's HISTORY is answered as before, and names no game of theirs.
    stranger = game.mail(NOSY, f"HISTORY {game.id}", to=SETTINGS.address, subject="hi")
    assert (stranger.status, stranger.reason) == ("rejected", "names no game")


def test_a_watchers_html_board_asks_for_no_orders(table):
    game = table("bigtime", [ANN, BO], seed=3)
    _ask(game, WAT, f"WATCH {game.id}")
    game.mail(ANN, "BID 3 2 1")
    last = {row.to_address: row for row in game.outbox()}
    assert "Booking office" in _html(last[WAT].raw)
    assert "write an act by its code" not in _html(last[WAT].raw)
    assert "write an act by its code" in _html(last[ANN].raw)  # a player writes orders


def _html(raw: bytes) -> str:
    message = message_from_bytes(raw, policy=policy.default)
    return next(
        part.get_content() for part in message.walk() if part.get_content_type() == "text/html"
    )


def test_watch_without_a_game_is_asked_to_name_one(table):
    game = _sm(table)
    answer = _ask(game, NOSY, "WATCH", subject="hello")
    assert "names no game" in letter_text(answer.raw)


def test_a_player_is_not_made_a_watcher_of_their_own_game(table):
    game = _sm(table)
    answer = _ask(game, BO, f"WATCH {game.id}")
    assert "You play in game" in letter_text(answer.raw)
    assert _watching(game) == []


def test_watch_to_a_plus_address_is_orders_not_a_request(table):
    game = _sm(table)
    result = game.mail(ANN, f"WATCH {game.id}")
    assert result.status == "rejected" and _watching(game) == []


def test_a_watchers_mail_is_never_orders(table):
    game = _sm(table)
    _ask(game, WAT, f"WATCH {game.id}")
    state = game.game().row.state
    answer = _ask(game, WAT, "HIRE 0\nSTATUS", subject=f"Re: [{game.id}] Ann's turn")
    assert game.game().row.state == state
    text = " ".join(letter_text(answer.raw).split())  # long lines are wrapped: read as words
    assert f"You watch game {game.id}" in text and "A watcher has no seat" in text
    assert f"write UNWATCH {game.id} to {SETTINGS.address}" in text
    assert "PASSWORD" not in text  # no talk of passwords to someone who has no seat


def test_answers_to_one_address_are_rate_limited_but_requests_still_count(table):
    game = _sm(table)
    for _ in range(watchers.ANSWERS_PER_HOUR):
        _ask(game, NOSY, "WATCH sm-999")
    before = len(game.outbox())
    game.mail(NOSY, f"WATCH {game.id}", to=SETTINGS.address, subject="w")
    assert len(game.outbox()) == before
    assert _watching(game) == [NOSY]


def test_automated_mail_is_ignored(table):
    game = _sm(table)
    result = game.mail(
        WAT,
        f"WATCH {game.id}",
        to=SETTINGS.address,
        subject="Auto: away",
        headers={"Auto-Submitted": "auto-replied"},
    )
    assert result.status == "ignored" and _watching(game) == []


def test_watchers_get_the_final_standings(table):
    game = table("bigtime", [ANN, BO, CY], seed=3)
    _ask(game, WAT, f"WATCH {game.id}")
    _play_out(game)
    last = [row for row in game.outbox() if row.to_address == WAT][-1]
    text = letter_text(last.raw)
    assert "Final standings:" in text and "Final result" in read_email(last.raw).subject
    # Found in play-testing: the last letters of a finished game told the watcher how to stop
    # watching, and how to watch again what takes no watchers.
    assert "which is over: this is the last of its emails to you" in " ".join(text.split())
    assert "UNWATCH" not in text
    _ask(game, WAT, f"UNWATCH {game.id}")
    goodbye = letter_text([row for row in game.outbox() if row.to_address == WAT][-1].raw)
    assert "You no longer watch game" in goodbye and "To watch it again" not in goodbye


def test_gm_watch_and_unwatch(table):
    game = _sm(table)
    with session_scope(game.engine) as session:
        done = watchers.watch(Desk(session, SETTINGS), game.id, "Wat@Example.org")
    assert (done.changed, done.watchers, done.address) == (True, 1, WAT)
    assert game.outbox()[-1].to_address == WAT and game.outbox()[-1].kind == "watching"
    with session_scope(game.engine) as session:
        assert not watchers.watch(Desk(session, SETTINGS), game.id, WAT).changed
    with session_scope(game.engine) as session:
        assert watchers.unwatch(Desk(session, SETTINGS), game.id, WAT).watchers == 0
    # Found in play-testing: the game master's watcher was welcomed as if it had asked, and
    # was written to again when the game master added it a second time.
    with session_scope(game.engine) as session:
        assert watchers.watch(Desk(session, SETTINGS), game.id, WAT, by_gm=True).changed
    welcome = letter_text(game.outbox()[-1].raw)
    assert f"The game master made you a watcher of Show Manager game {game.id}." in welcome
    sent = len(game.outbox())
    with session_scope(game.engine) as session:
        assert not watchers.watch(Desk(session, SETTINGS), game.id, WAT, by_gm=True).changed
    assert len(game.outbox()) == sent
    with session_scope(game.engine) as session:
        watchers.unwatch(Desk(session, SETTINGS), game.id, WAT)
    with pytest.raises(watchers.WatchError), session_scope(game.engine) as session:
        watchers.unwatch(Desk(session, SETTINGS), game.id, WAT)
    with pytest.raises(GameNotFound), session_scope(game.engine) as session:
        watchers.watch(Desk(session, SETTINGS), "sm-999", WAT)
    private = _sm(table, private=True)
    with pytest.raises(watchers.WatchError, match="private"), session_scope(game.engine) as session:
        watchers.watch(Desk(session, SETTINGS), private.id, WAT)


# The corpus's WATCH and UNWATCH emails, as clients write them, and the request each one makes.
WATCH_EMAILS = Path(__file__).resolve().parent.parent / "emails" / "watching"
WATCH_CORPUS: dict[str, tuple[str, str] | None] = {
    "gmail_watch_alternative.eml": ("WATCH", "sm-12"),
    # Outlook quotes the watch letter whole, its UNWATCH line too: the game is the subject's.
    "outlook_unwatch_reply_crlf.eml": ("UNWATCH", "bt-7"),
    # The signature's line is not read.
    "iphone_watch_bracketed.eml": ("WATCH", "bt-3"),
    # To a seat's plus-address: orders, never a request.
    "watch_to_a_plus_address.eml": None,
}


def test_every_watch_email_has_an_expectation():
    assert {path.name for path in WATCH_EMAILS.glob("*.eml")} == set(WATCH_CORPUS)


@pytest.mark.parametrize("name", sorted(WATCH_CORPUS))
def test_a_watch_email_makes_its_request(name):
    email = read_email((WATCH_EMAILS / name).read_bytes())
    request = watchers.watch_request_in("moderator@pbem.example.org", email)
    made = None if request is None else (request.verb, request.game_id)
    assert made == WATCH_CORPUS[name]


@pytest.mark.parametrize(
    ("text", "verb", "game"),
    [
        ("WATCH sm-12", "WATCH", "sm-12"),
        ("hi there\n\nwatch [BT-3] please", "WATCH", "bt-3"),
        ("Unwatch: sm-1.", "UNWATCH", "sm-1"),
        ("UNWATCH", "UNWATCH", None),
    ],
)
def test_reading_a_request(text, verb, game):
    request = watch_request(text)
    assert request is not None and (request.verb, request.game_id) == (verb, game)


@pytest.mark.parametrize("text", ["", "PASSWORD k7q2m\nWATCH sm-1", "HIRE 2", "watching you"])
def test_not_a_request(text):
    assert watch_request(text) is None


def _play_out(game: Table) -> None:
    """Random legal orders, entered through the game master's order command, to the end."""
    rng = Rng.from_seed(5)
    for _ in range(2_000):
        loaded = game.game()
        if loaded.engine.is_over(loaded.state):
            return
        seat = loaded.engine.awaiting(loaded.state)[0]
        actions = loaded.engine.random_actions(loaded.state, seat, rng)
        with session_scope(game.engine) as session:
            address = loaded.seat(seat).address
            gm.order(Desk(session, SETTINGS), game.id, address, order_text(actions), None)
    raise AssertionError(f"{game.id} did not finish")


def test_a_deadline_the_game_master_sets_is_told_to_watchers_with_the_news_before_it(table):
    # Found in play-testing: a watcher's letters kept the old deadline, and what the deadline's
    # statuses told the players (Ann's refresh) never reached the watcher.
    game = _sm(table)
    _ask(game, WAT, f"WATCH {game.id}")
    assert game.mail(ANN, "REFRESH").status == "accepted"
    before = len(game.outbox())
    with session_scope(game.engine) as session:
        gm.deadline(Desk(session, SETTINGS), game.id, 24, None, "holidays")
    [letter] = [row for row in game.outbox()[before:] if row.to_address == WAT]
    text = letter_text(letter.raw)
    assert "The game master set the deadline to 24 hours" in text
    assert "Ann refreshed the agency" in text and "Deadline: 20" in text
    assert game.mail(ANN, "HIRE 0").status == "accepted"
    [status] = [row for row in game.outbox() if row.to_address == WAT][-1:]
    assert "Ann refreshed" not in letter_text(status.raw)  # told once


def test_an_undo_is_told_to_a_watcher_without_asking_them_to_bid(table):
    # Found in play-testing: a watcher was told "send your bid again" (and in phase 3, where
    # a BID is refused, players were too: they send HEADLINER).
    game = table("bigtime", [f"{ANN}:Ann", f"{BO}:Bo"], seed=3)
    _ask(game, WAT, f"WATCH {game.id}")
    for player in (ANN, BO):
        assert game.mail(player, "BID 0").status == "accepted"
    before = len(game.outbox())
    with session_scope(game.engine) as session:
        undoing.undo(Desk(session, SETTINGS), game.id, None, None)
    sent = game.outbox()[before:]
    [watcher] = [" ".join(letter_text(r.raw).split()) for r in sent if r.to_address == WAT]
    assert "every bid is taken back: every player orders again." in watcher
    assert "send your orders again" not in watcher and "send them again" not in watcher
    [ann] = [" ".join(letter_text(r.raw).split()) for r in sent if r.to_address == ANN]
    assert "every bid is taken back: send your orders again." in ann
