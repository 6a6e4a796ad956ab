"""`ARCHIVE <game>` mailed to the moderator's bare address: the page of a finished game comes back
attached (text/html); a game still being played, an unknown game or no game named get one polite
line; a few answers an hour per sender at most."""

from __future__ import annotations

from collections.abc import Callable
from email import message_from_bytes, policy
from email.message import EmailMessage

from pbem.moderator import watchers
from pbem.moderator.archive_mail import ARCHIVE_REPLIES_PER_HOUR
from pbem.moderator.desk import Desk
from pbem.orders.format import order_text
from pbem.store import session_scope
from tests.moderator.conftest import ANN, BO, SETTINGS, Table
from tests.support.letters import letter_text

READER = "reader@example.net"


def ask(table: Table, body: str, sender: str = READER) -> str:
    raw = table.email(sender, body, to=SETTINGS.address, subject="archive please")
    return str(table.send(raw).status)


def answers(table: Table, to: str = READER) -> list[EmailMessage]:
    rows = [row for row in table.outbox() if row.to_address == to and row.kind == "archive"]
    parsed = [message_from_bytes(row.raw, policy=policy.default) for row in rows]
    return [message for message in parsed if isinstance(message, EmailMessage)]


def finish(table: Table) -> None:
    """Every seat sends its default orders, answering the phase, until the game is over."""
    for _ in range(200):
        game = table.game()
        if game.engine.is_over(game.state):
            return
        seat = game.engine.awaiting(game.state)[0]
        phase = f"[{game.id}] Round {game.state.round} · Phase {game.state.phase}"
        orders = order_text(game.engine.default_actions(game.state, seat))
        assert table.mail(game.seat(seat).address, orders, subject=phase).status == "accepted"
    raise AssertionError("the game did not end")


def test_a_finished_game_s_page_comes_back_attached(table: Callable[..., Table]) -> None:
    game = table("bigtime", [f"{ANN}:Ann", f"{BO}:Bo"], seed=4)
    finish(game)
    assert ask(game, f"ARCHIVE {game.id}\n\n-- \nReader") == "accepted"
    [answer] = answers(game)
    [page] = list(answer.iter_attachments())
    assert page.get_content_type() == "text/html"
    assert page.get_filename() == f"{game.id}.html"
    assert page.get_content_charset() == "utf-8"
    html = page.get_content()
    assert "Final standings" in html
    for seat in game.game().seats:
        assert seat.address not in html and seat.address not in letter_text(answer.as_bytes())
    assert f"The archive of The Big Time! game {game.id} is attached" in letter_text(
        answer.as_bytes()
    )


def test_a_game_still_being_played_gets_a_polite_word(table: Callable[..., Table]) -> None:
    game = table("showmanager", [ANN, BO])
    assert ask(game, f"Hi,\n\narchive {game.id}\nthanks") == "rejected"
    [answer] = answers(game)
    assert list(answer.iter_attachments()) == []
    text = letter_text(answer.as_bytes())
    assert f"game {game.id} is still being played; its archive is ready once it is over" in text
    assert f"To follow it meanwhile, write WATCH {game.id} to {SETTINGS.address}." in text


def test_an_unknown_game_and_no_game_named_are_answered(table: Callable[..., Table]) -> None:
    game = table("showmanager", [ANN, BO])
    assert ask(game, "ARCHIVE sm-99") == "rejected"
    assert ask(game, "Archive") == "rejected"
    assert ask(game, "archive: [SM-98]\nplease") == "rejected"
    first, second, third = (letter_text(answer.as_bytes()) for answer in answers(game))
    assert "there is no game 'sm-99'" in first
    assert "Write ARCHIVE and the game, e.g. ARCHIVE sm-12." in second
    assert "WATCH" not in first
    assert "there is no game 'sm-98'" in third


def test_a_private_game_is_answered_to_a_stranger_as_an_unknown_game(
    table: Callable[..., Table],
) -> None:
    game = table("showmanager", [ANN, BO], private=True)
    assert ask(game, f"ARCHIVE {game.id}") == "rejected"
    assert ask(game, f"ARCHIVE {game.id}", sender=ANN) == "rejected"
    stranger = letter_text(answers(game)[0].as_bytes())
    player = letter_text(answers(game, ANN)[0].as_bytes())
    assert f"there is no game '{game.id}'" in stranger and "WATCH" not in stranger
    assert f"game {game.id} is still being played" in player and "WATCH" not in player


def test_a_watcher_is_not_told_to_watch_the_game_it_watches(table: Callable[..., Table]) -> None:
    game = table("showmanager", [ANN, BO])
    with session_scope(game.engine) as session:
        watchers.watch(Desk(session, SETTINGS), game.id, READER)
    assert ask(game, f"ARCHIVE {game.id}") == "rejected"
    text = letter_text(answers(game)[0].as_bytes())
    assert "still being played" in text and "WATCH" not in text


def test_a_sender_gets_a_few_answers_an_hour(table: Callable[..., Table]) -> None:
    game = table("showmanager", [ANN, BO])
    for _ in range(ARCHIVE_REPLIES_PER_HOUR + 2):
        ask(game, f"ARCHIVE {game.id}")
    assert len(answers(game)) == ARCHIVE_REPLIES_PER_HOUR


def test_archive_to_a_seat_s_own_address_is_read_as_orders(table: Callable[..., Table]) -> None:
    game = table("showmanager", [ANN, BO])
    assert game.mail(ANN, f"ARCHIVE {game.id}").status == "rejected"
    assert answers(game, ANN) == []


def test_talk_to_one_player_leaves_no_trace_on_the_page(table: Callable[..., Table]) -> None:
    """Press `all`: the others are told nothing of private talk, not even that it was said, and
    the archive is read as they read the game: no "Ann wrote." line either."""
    game = table("bigtime", [f"{ANN}:Ann", f"{BO}:Bo", "cy@example.org:Cy"], seed=4)
    assert game.mail(ANN, "SAY TO Bo the plan is to bid low").status == "accepted"
    assert game.mail(BO, "SAY good luck, everyone").status == "accepted"
    finish(game)
    assert ask(game, f"ARCHIVE {game.id}") == "accepted"
    [answer] = answers(game)
    [page] = list(answer.iter_attachments())
    html = page.get_content()
    assert "Bo says: good luck, everyone" in html
    assert "bid low" not in html
    assert "Ann wrote" not in html and "wrote." not in html
