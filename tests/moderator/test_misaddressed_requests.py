"""Requests sent where they do not belong, found in play-testing (local Maildir, `pbem run
--once`): ARCHIVE of a game still open for sign-up was told the game does not exist; ARCHIVE to
a seat's address after the end got "Not carried out" and the whole order HELP; LEAVE to a
seat's address during the game got "Your email held no orders" and HELP, while the same LEAVE
to the join address was told to reply RESIGN."""

from __future__ import annotations

from collections.abc import Callable
from email import message_from_bytes, policy
from email.message import EmailMessage

from sqlalchemy import Engine

from pbem.moderator.addresses import reply_address
from tests.moderator.conftest import ANN, BO, SETTINGS, Table
from tests.moderator.test_archive_mail import finish
from tests.moderator.test_signup import SignupDesk
from tests.support.letters import letter_text

READER = "reader@example.net"
# How the order list (HELP) that a seat's email with no orders is taught begins.
HELP = "Orders for The Big Time!: one order a line"


def flat(raw: bytes) -> str:
    """A letter's text with its lines joined, as wrapped text reads."""
    return " ".join(letter_text(raw).split())


def last_to(table: Table, address: str) -> tuple[str, EmailMessage]:
    row = [row for row in table.outbox() if row.to_address == address][-1]
    message = message_from_bytes(row.raw, policy=policy.default)
    assert isinstance(message, EmailMessage)
    return row.kind, message


def test_archive_of_a_game_open_for_sign_up_says_it_has_not_started(db_engine: Engine) -> None:
    signup = SignupDesk(db_engine, seats="3-4")
    assert signup.mail(READER, f"ARCHIVE {signup.id}", to=SETTINGS.address).status == "rejected"
    text = " ".join(signup.last_to(READER).split())
    assert f"{signup.id} has not started yet: it is still open for sign-up" in text
    assert "there is no game" not in text
    assert f"write LIST to {SETTINGS.address}" in text
    # A private sign-up is answered as an unknown game, as WATCH answers it.
    private = SignupDesk(db_engine, seats="3-4", private=True)
    private.mail(READER, f"ARCHIVE {private.id}", to=SETTINGS.address)
    text = " ".join(private.last_to(READER).split())
    assert f"there is no game '{private.id}'" in text and "sign-up" not in text


def test_archive_to_a_seat_s_address_after_the_end_gets_the_archive(
    table: Callable[..., Table],
) -> None:
    game = table("bigtime", [f"{ANN}:Ann", f"{BO}:Bo"], seed=4)
    finish(game)
    assert game.mail(ANN, f"ARCHIVE {game.id}").status == "accepted"
    kind, answer = last_to(game, ANN)
    assert kind == "archive"
    [page] = list(answer.iter_attachments())
    assert page.get_filename() == f"{game.id}.html" and "Final standings" in page.get_content()
    text = flat(answer.as_bytes())
    assert "Not carried out" not in str(answer["Subject"])
    assert "held no orders" not in text and HELP not in text
    # ARCHIVE alone asks for the seat's own game; from another address, the seat's password
    # still says a player asks.
    assert game.mail(BO, "Hello,\n\nARCHIVE\n\nBo").status == "accepted"
    assert last_to(game, BO)[0] == "archive"


def test_archive_to_a_seat_s_address_of_a_private_game_after_the_end_gets_it(
    table: Callable[..., Table],
) -> None:
    game = table("bigtime", [f"{ANN}:Ann", f"{BO}:Bo"], seed=4, private=True)
    finish(game)
    other = "ann.at.work@example.net"  # her seat's reply address, written to from elsewhere
    to = reply_address(SETTINGS.address, game.id, game.secret(ANN))
    assert game.send(game.email(other, f"ARCHIVE {game.id}", to=to)).status == "accepted"
    assert last_to(game, other)[0] == "archive"


def test_archive_to_a_seat_s_address_during_the_game_points_to_the_bare_address(
    table: Callable[..., Table],
) -> None:
    game = table("bigtime", [f"{ANN}:Ann", f"{BO}:Bo"], seed=4)
    assert game.mail(ANN, f"ARCHIVE {game.id}").status == "rejected"
    kind, answer = last_to(game, ANN)
    assert kind != "archive" and list(answer.iter_attachments()) == []
    text = flat(answer.as_bytes())
    assert f"the archive of {game.id} is ready once the game is over" in text
    assert f"write ARCHIVE {game.id} to {SETTINGS.address}" in text
    assert "held no orders" not in text and HELP not in text


def test_leave_to_a_seat_s_address_during_the_game_is_told_to_resign(
    table: Callable[..., Table],
) -> None:
    game = table("bigtime", [f"{ANN}:Ann", f"{BO}:Bo"], seed=4)
    assert game.mail(BO, "LEAVE please").status == "rejected"
    text = flat(last_to(game, BO)[1].as_bytes())
    assert "LEAVE is for a sign-up, before its game starts" in text
    assert "RESIGN alone on its line" in text
    assert "held no orders" not in text and HELP not in text
    # Nothing changed: Bo still holds his seat.
    assert game.game().seat(1).address == BO and game.game().seat(1).kind == "human"


def test_leave_to_a_seat_s_address_after_the_end_says_there_is_no_seat_to_leave(
    table: Callable[..., Table],
) -> None:
    game = table("bigtime", [f"{ANN}:Ann", f"{BO}:Bo"], seed=4)
    finish(game)
    assert game.mail(BO, "Hi\n\nleave").status == "rejected"
    text = flat(last_to(game, BO)[1].as_bytes())
    assert "is over, so there is no seat to leave" in text and "RESIGN" not in text


def test_an_email_with_no_request_still_gets_help(table: Callable[..., Table]) -> None:
    game = table("bigtime", [f"{ANN}:Ann", f"{BO}:Bo"], seed=4)
    assert game.mail(ANN, "what do I do now?").status == "rejected"
    text = flat(last_to(game, ANN)[1].as_bytes())
    assert "Your email held no orders." in text and HELP in text
