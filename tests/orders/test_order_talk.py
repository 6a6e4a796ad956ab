"""Table talk in an email: SAY lines and SAY..END blocks, read as written and never as orders."""

from __future__ import annotations

import pytest

from pbem.games.showmanager.actions import Hire
from pbem.orders import Grammar, Talk, grammar_for, help_text, parse_orders


@pytest.fixture(scope="module", params=["showmanager", "bigtime"])
def grammar(request: pytest.FixtureRequest) -> Grammar:
    return grammar_for(request.param)


def test_say_is_talk_to_everyone_kept_as_written(grammar: Grammar) -> None:
    parsed = parse_orders("SAY Good luck, all!\n- say: Who bids 3 3?\n", grammar)
    assert parsed.talk == (Talk("Good luck, all!"), Talk("Who bids 3 3?"))
    assert parsed.actions == () and parsed.commands == () and parsed.has_orders


def test_say_to_names_one_player_by_name_or_number(grammar: Grammar) -> None:
    text = "SAY TO Bo shall we share?\nsay to bo: deal\nSay To 3, fine\n"
    assert parse_orders(text, grammar).talk == (
        Talk("shall we share?", "Bo"),
        Talk("deal", "bo"),
        Talk("fine", "3"),
    )


def test_a_block_from_say_to_end_is_one_message_whose_lines_are_not_orders() -> None:
    text = "HIRE 2\nSAY TO Ann\n\nHIRE 3 is mine.\n# not a comment here\n\nend\nHIRE 1\n"
    parsed = parse_orders(text, grammar_for("showmanager"))
    assert [(line.number, line.order) for line in parsed.orders] == [
        (1, Hire(slot=2)),
        (2, Talk("HIRE 3 is mine.\n# not a comment here", "Ann")),
        (8, Hire(slot=1)),
    ]
    assert parsed.errors == ()
    # The block's lines as written, for a reply to quote (a SAY line alone has none).
    assert [line.block for line in parsed.orders] == [
        (),
        ("HIRE 3 is mine.", "# not a comment here", "end"),
        (),
    ]


def test_a_block_without_end_is_an_error_naming_its_say_line(grammar: Grammar) -> None:
    parsed = parse_orders(
        "SAY\nhello there\n-- write your orders above this line --\nEND\n", grammar
    )
    assert parsed.talk == ()
    (error,) = parsed.errors
    assert error.number == 1 and "end it with a line END" in error.reason
    assert "SAY ... END" in error.accepted


def test_say_to_without_a_name_is_an_error(grammar: Grammar) -> None:
    (error,) = parse_orders("SAY TO\n", grammar).errors
    assert "write the player's name after SAY TO" in error.reason


@pytest.mark.parametrize("line", ["Way to go!", "Sat down to write this", "Stay tuned", "Says who"])
def test_a_word_near_say_is_chatter_never_a_typo_of_it(grammar: Grammar, line: str) -> None:
    parsed = parse_orders(line, grammar)
    assert parsed.errors == () and parsed.talk == ()
    assert [ignored.text for ignored in parsed.ignored] == [line]


def test_help_teaches_talk() -> None:
    text = help_text("showmanager")
    assert "SAY TO <name> <text>" in text and "SAY ... END" in text
