"""Sign-up emails as clients write them (tests/emails/signup): the address they go to and the
one sign-up order read from their new text."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.moderator.addresses import join_game_in, to_bare_address
from pbem.orders import read_email
from pbem.orders.signup import SignupOrder, name_clash, name_refusal, read_signup

EMAILS = Path(__file__).resolve().parent.parent / "emails" / "signup"
MODERATOR = "pbem@pbem.example.org"

# name: (the game of the join address it went to, or None for the bare address; the order)
CORPUS: dict[str, tuple[str | None, SignupOrder]] = {
    "join_gmail_alternative_signature.eml": (
        "bt-3",
        SignupOrder("JOIN", "Anna Schmidt", "join   Anna  Schmidt"),
    ),
    "leave_outlook_reply.eml": (
        "bt-3",
        SignupOrder("LEAVE", None, "Leave, sorry - no time this month."),
    ),
    "list_iphone.eml": (None, SignupOrder("LIST", None, "List")),
}


def test_every_sign_up_email_has_an_expectation() -> None:
    assert {path.name for path in EMAILS.glob("*.eml")} == set(CORPUS)


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_sign_up_email_goes_to_its_address_and_holds_its_order(name: str) -> None:
    game, order = CORPUS[name]
    email = read_email((EMAILS / name).read_bytes())
    recipients = list(email.recipients)
    assert join_game_in(MODERATOR, recipients) == game
    assert to_bare_address(MODERATOR, recipients) == (game is None)
    assert read_signup(email.text) == order


@pytest.mark.parametrize(
    ("text", "word", "name"),
    [
        ("# my sign-up\n\nJOIN: Di", "JOIN", "Di"),
        ("HELP please", "HELP", None),
        ("Hi there!\nJOIN Ann\nthanks", "JOIN", "Ann"),
        ("Hello!\n\nJoin Cleo\n\nLEAVE", "JOIN", "Cleo"),
        ("Dear moderator,\nleave, sorry", "LEAVE", None),
        ("Joining is fun?", "", None),
        ("PASSWORD k7q2m\nJOIN Ann", "", None),
        ("Can I play?", "", None),
        ("", "", None),
    ],
)
def test_the_first_line_with_a_sign_up_word_is_read(text: str, word: str, name: str | None) -> None:
    order = read_signup(text)
    assert (order.word, order.name) == (word, name)


def test_with_no_sign_up_word_the_first_line_is_quoted_back() -> None:
    assert read_signup("\n# hi\nCan I play?\nplease").line == "Can I play?"


def test_a_name_a_seat_would_be_called_or_with_an_address_is_no_name() -> None:
    assert name_refusal("Ann") is None
    for bad in ("Player 2", "player3", "ann@example.org", "x" * 41, "Ann\x07"):
        assert name_refusal(bad) is not None, bad


@pytest.mark.parametrize(
    ("one", "other", "word"),
    [
        ("Ann", "Ann Smith", "Ann"),  # SAY TO Ann: the one's name, the other's first name
        ("Ann Lee", "ann smith", "ann"),  # both first names
        ("ann-smith", "Ann Smith", "Ann Smith"),  # whole names that read alike
        ("Ann-Marie", "Ann Smith", None),  # SAY TO Ann-Marie and SAY TO Ann each name one
        ("Smith", "Ann Smith", None),  # SAY TO never names a player by a last name
    ],
)
def test_a_name_clashes_with_another_on_a_word_say_to_would_name_both_by(
    one: str, other: str, word: str | None
) -> None:
    assert name_clash(one, other) == word
    assert (name_clash(other, one) is None) == (word is None)
