"""How an email's lines are sorted into orders, errors and ignored lines (ORDERS.md)."""

from __future__ import annotations

import pytest

from pbem.games.bigtime.actions import Bid, PreferAM
from pbem.games.showmanager.actions import Hire, Refresh, Stage
from pbem.orders import Command, Grammar, Password, grammar_for, parse_orders
from pbem.orders.grammar import Order
from pbem.orders.words import one_edit_apart, split_words


@pytest.fixture(scope="module")
def grammar() -> Grammar:
    return grammar_for("showmanager")


def test_blank_lines_and_comments_are_skipped_and_greetings_listed_as_ignored(
    grammar: Grammar,
) -> None:
    parsed = parse_orders("Hi Mod,\n\n# my move\nhire 2\nThanks!\nBest, Bob\n", grammar)
    assert [(line.number, line.order) for line in parsed.orders] == [(4, Hire(slot=2))]
    assert [(line.number, line.text) for line in parsed.ignored] == [
        (1, "Hi Mod,"),
        (5, "Thanks!"),
        (6, "Best, Bob"),
    ]
    assert parsed.errors == ()


def test_an_email_without_orders_has_none(grammar: Grammar) -> None:
    parsed = parse_orders("Thanks for the game!\n\nBob", grammar)
    assert not parsed.has_orders
    assert len(parsed.ignored) == 2


def test_an_email_with_only_a_bad_order_still_has_orders(grammar: Grammar) -> None:
    parsed = parse_orders("HIRE nine", grammar)
    assert parsed.has_orders
    assert parsed.orders == ()


def test_refresh_twice_keeps_the_line_number_of_each_action(grammar: Grammar) -> None:
    parsed = parse_orders("\nREFRESH 2\nHIRE 0", grammar)
    assert [(line.number, line.text, line.order) for line in parsed.orders] == [
        (2, "REFRESH 2", Refresh()),
        (2, "REFRESH 2", Refresh()),
        (3, "HIRE 0", Hire(slot=0)),
    ]


@pytest.mark.parametrize(
    ("line", "command"),
    [
        ("HELP", Command("HELP")),
        ("status", Command("STATUS")),
        ("Status?", Command("STATUS")),
        ("HISTORY", Command("HISTORY")),
        ("Resign.", Command("RESIGN")),
        # A command word followed by chatter is that command (ORDERS.md).
        ("status please", Command("STATUS")),
        ("HELP me", Command("HELP")),
        ("history thanks", Command("HISTORY")),
        ("Status: could you send it again? It got lost.", Command("STATUS")),
        ("- help me please!", Command("HELP")),
        ("PASSWORD k7q2m", Password("k7q2m")),
        ("password: Ab#9=x", Password("Ab#9=x")),
    ],
)
def test_commands_work_in_both_games(line: str, command: Command | Password) -> None:
    for game in ("showmanager", "bigtime"):
        parsed = parse_orders(line, grammar_for(game))
        assert [order.order for order in parsed.orders] == [command]
        assert parsed.commands == (command,)
        assert parsed.actions == ()


@pytest.mark.parametrize(
    ("line", "order"),
    [
        # As a command may be followed by chatter, an order may end in a courtesy word.
        ("Hire 0 please", Hire(slot=0)),
        ("HIRE 0, please.", Hire(slot=0)),
        ("hire #57 thank you!", Hire(card=57)),
        ("Refresh please", Refresh()),
        ("STAGE WOLF 14 27 33 IN KOELN thanks", Stage("Wolf", (14, 27, 33), "Köln")),
    ],
)
def test_an_order_may_end_in_a_courtesy_word(line: str, order: Order, grammar: Grammar) -> None:
    parsed = parse_orders(line, grammar)
    assert [read.order for read in parsed.orders] == [order]
    assert parsed.errors == ()


def test_a_courtesy_word_is_no_argument_and_hides_no_mistake(grammar: Grammar) -> None:
    (bad,) = parse_orders("HIRE nine please", grammar).errors
    assert bad.reason == "the agency slot must be a whole number, not 'nine'"
    # Only the words at the end: one in the middle is still a stray word.
    assert parse_orders("HIRE please 0", grammar).errors
    # A near miss of an order word with a courtesy word only is chatter, not a typo.
    assert [line.text for line in parse_orders("Refreshed, thanks", grammar).ignored] == [
        "Refreshed, thanks"
    ]


@pytest.mark.parametrize(
    "line", ["RESIGN please", "Resign? Never!", "PASSWORD", "PASSWORD two words"]
)
def test_resign_and_password_with_stray_words_are_errors(line: str, grammar: Grammar) -> None:
    # RESIGN cannot be undone, so it is never read out of a sentence; it must stand alone.
    parsed = parse_orders(line, grammar)
    assert len(parsed.errors) == 1
    assert parsed.orders == ()


def test_resign_with_chatter_says_to_write_it_alone(grammar: Grammar) -> None:
    (bad,) = parse_orders("resign please", grammar).errors
    assert bad.reason == "write RESIGN alone on its line: leaving the game cannot be undone"


def test_actions_and_commands_are_told_apart(grammar: Grammar) -> None:
    parsed = parse_orders("PASSWORD abc\nHIRE 1\nSTATUS", grammar)
    assert parsed.actions == (Hire(slot=1),)
    assert parsed.commands == (Password("abc"), Command("STATUS"))


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("HRIE 2", "HIRE"),  # two letters swapped
        ("Hir 2", "HIRE"),  # a letter dropped
        ("HIREE 2", "HIRE"),  # a letter added
        ("Hike 2", "HIRE"),  # a letter changed
        ("Here 2", "HIRE"),
        ("Hrie #57", "HIRE"),
        ("Refesh", "REFRESH"),
        ("Refresj 2", "REFRESH"),
        ("STAEG WOLF 1 2 3", "STAGE"),
        ("Stag queenie 14 27 33 109 in koeln", "STAGE"),
        ("Staus", "STATUS"),
        ("Hepl", "HELP"),
        ("Lona WOLF 3", "LOAN"),
        ("Loam wolf $3", "LOAN"),
        ("Pasword abc", "PASSWORD"),
    ],
)
def test_a_first_word_one_edit_from_an_order_word_with_its_arguments_is_an_error(
    typed: str, meant: str, grammar: Grammar
) -> None:
    parsed = parse_orders(typed, grammar)
    (bad,) = parsed.errors
    assert f"did you mean {meant}?" in bad.reason
    form = grammar.form(meant)
    assert form is not None
    assert bad.accepted == form.forms
    assert parsed.orders == () and parsed.ignored == ()


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("BDI 3 2 2", "BID"),
        ("Bdi $3 $3 $2", "BID"),
        ("BIDD 0", "BID"),
        ("Bi 3 3", "BID"),
        ("Big 3 2", "BID"),
        ("AN A3 A1", "AM"),
        ("A1 A3", "AM"),  # the order word forgotten: a code is one edit from AM
        ("Pn P2", "PM"),
        ("OM P1", "AM or PM"),
        ("Headliners H31 H29", "HEADLINER"),
        ("Headlner", "HEADLINER"),
        ("HOKO T07", "HOOK"),
        ("Histroy", "HISTORY"),
    ],
)
def test_short_order_words_are_guessed_at_when_their_arguments_follow(
    typed: str, meant: str
) -> None:
    grammar = grammar_for("bigtime", codes={"A1": "T05", "A3": "T18", "P1": "T02", "P2": "T14"})
    (bad,) = parse_orders(typed, grammar).errors
    assert bad.reason == f"{typed.split()[0]!r} is not an order: did you mean {meant}?"


@pytest.mark.parametrize(
    "line",
    [
        "Here are my orders:",
        "Here you go.",
        "Here's what I'm doing",
        "Hired help is expensive",
        "Held up at work, sorry for the delay",  # HELD: one edit from HELP, but chatter follows
        "Hell, what a round!",
        "Staus please",  # a typo of a command is judged without chatter
        "Stats look fine",
        "Stag night tomorrow",
        "Lion King would be a better musical",
        "Refreshing to play again",
        "BIG plans",
        "Hi there",
        "Hiring is fun",
        "Staging",
        "I hire",
        "Thanks!",
        "Best, Bob",
    ],
)
def test_other_first_words_are_ignored(line: str, grammar: Grammar) -> None:
    parsed = parse_orders(line, grammar)
    assert parsed.errors == ()
    assert [ignored.text for ignored in parsed.ignored] == [line]


@pytest.mark.parametrize(
    "line",
    [
        "An idea:",
        "BIT of luck",
        "Bud, thanks",
        "Ah well",
        "PS: good luck",
        "A 3 act show",
        "Book me in",
        "Looks good to me",
        "Here are my orders:",
    ],
)
def test_words_near_short_order_words_are_ignored_without_their_arguments(line: str) -> None:
    grammar = grammar_for("bigtime", codes={"A1": "T05", "A3": "T18"})
    parsed = parse_orders(line, grammar)
    assert parsed.errors == ()
    assert [ignored.text for ignored in parsed.ignored] == [line]


def test_chatter_around_orders_is_listed_and_the_orders_read() -> None:
    grammar = grammar_for("bigtime", codes={"A1": "T05", "A3": "T18"})
    text = "Hi all,\nHere are my orders:\n\nBID $3 $3 $2\nAM A3 A1\nstatus please\nThanks!\n"
    parsed = parse_orders(text, grammar)
    assert [line.order for line in parsed.orders] == [
        Bid((3, 3, 2)),
        PreferAM(("T18", "T05")),
        Command("STATUS"),
    ]
    assert [(line.number, line.text) for line in parsed.ignored] == [
        (1, "Hi all,"),
        (2, "Here are my orders:"),
        (7, "Thanks!"),
    ]
    assert parsed.errors == ()


def test_a_bid_typo_is_an_error_not_a_missing_bid() -> None:
    # Issue 10: "BDI 3 2 2" used to be ignored, and the email refused only for its missing BID.
    grammar = grammar_for("bigtime", codes={"A1": "T05"})
    parsed = parse_orders("Here are my orders:\nBDI 3 2 2\nAM A1", grammar)
    (bad,) = parsed.errors
    assert str(bad).startswith("line 2 \"BDI 3 2 2\": 'BDI' is not an order: did you mean BID?")
    assert "Accepted: BID <cards> | BID 0" in str(bad)
    assert [line.text for line in parsed.ignored] == ["Here are my orders:"]


def test_the_other_games_orders_are_not_orders_here() -> None:
    parsed = parse_orders("BID 3\nHOOK T07", grammar_for("showmanager"))
    assert parsed.orders == ()


@pytest.mark.parametrize(
    ("first", "second", "apart"),
    [
        ("HIRE", "HRIE", True),
        ("HIRE", "HIR", True),
        ("HIRE", "HIRES", True),
        ("HIRE", "FIRE", True),
        ("HIRE", "HIRE", False),
        ("HIRE", "RIHE", False),
        ("HIRE", "HI", False),
        ("STAGE", "STEGA", False),
        ("", "A", True),
    ],
)
def test_one_edit_apart_is_damerau_distance_one(first: str, second: str, apart: bool) -> None:
    assert one_edit_apart(first, second) is apart
    assert one_edit_apart(second, first) is apart


def test_words_split_at_spaces_and_commas_and_marks_stand_alone() -> None:
    assert split_words("STAGE  QUEENIE 14=Queenie,27 ,33\tIN Köln") == [
        "STAGE", "QUEENIE", "14", "=", "Queenie", "27", "33", "IN", "Köln",
    ]  # fmt: skip
    assert split_words("LOAN WOLF#2 3") == ["LOAN", "WOLF", "#", "2", "3"]
    assert split_words("\uff28\uff29\uff32\uff25\u3000\uff12")  # full-width == ["HIRE", "2"]
