"""The Big Time!'s order forms (ORDERS.md): bids, preferences by card id or phase code, the Hook."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.games.bigtime.actions import Bid, Hook, PreferAM, PreferHeadliner, PreferPM
from pbem.orders import Grammar, Order, grammar_for
from tests.orders.reading import error, orders

CODES = {"A1": "T05", "A2": "T11", "a3": "T18", "P1": "T02", "P2": "T14", "H1": "H29", "H2": "H31"}


@pytest.fixture(scope="module")
def grammar() -> Grammar:
    return grammar_for("bigtime", codes=CODES)


@pytest.mark.parametrize(
    ("line", "order"),
    [
        ("BID 3 3 1", Bid((3, 3, 1))),
        ("bid 3,1", Bid((3, 1))),
        ("BID 0", Bid(())),
        # Money may be written with the $ the status emails show (ORDERS.md).
        ("BID $3 $3 $2", Bid((3, 3, 2))),
        ("bid $3,$3,$2", Bid((3, 3, 2))),
        ("BID 3$ 1$", Bid((3, 1))),
        ("BID $ 3 $ 1", Bid((3, 1))),
        ("BID $0", Bid(())),
        ("AM A3 A1 A2", PreferAM(("T18", "T05", "T11"))),
        ("am t07 H31", PreferAM(("T07", "H31"))),
        ("PM P2, p1", PreferPM(("T14", "T02"))),
        ("PM T2", PreferPM(("T02",))),
        ("HEADLINER H2 H1", PreferHeadliner(("H31", "H29"))),
        ("headliner", PreferHeadliner(())),
        ("HOOK T07", Hook("T07")),
        ("hook t7", Hook("T07")),
    ],
)
def test_one_line_reads_as_one_action(line: str, order: Order, grammar: Grammar) -> None:
    assert orders(line, grammar) == [order]


def test_a_card_id_wins_over_a_code_spelled_the_same() -> None:
    grammar = grammar_for("bigtime", codes={"H31": "H25"})
    assert orders("HEADLINER H31", grammar) == [PreferHeadliner(("H31",))]


def test_codes_are_read_against_the_phase_the_email_answers() -> None:
    phase_one = grammar_for("bigtime", codes={"A1": "T05"})
    phase_two = grammar_for("bigtime", codes={"A1": "T03"})
    assert orders("AM A1", phase_one) == [PreferAM(("T05",))]
    assert orders("AM A1", phase_two) == [PreferAM(("T03",))]


def test_an_unknown_code_is_an_error_listing_the_codes(grammar: Grammar) -> None:
    message = error("AM A1 A9", grammar)
    assert "'A9' is not an act" in message
    # The codes of the line's own row: an A.M. line is told the A.M. codes (play-testing).
    assert "(codes: A1, A2, A3)" in message
    assert "(codes: P1, P2)" in error("PM P9", grammar)
    assert "(codes: H1, H2)" in error("HEADLINER H9", grammar)


def test_without_codes_the_error_says_there_are_none() -> None:
    assert "codes: none in this phase" in error("AM A1", grammar_for("bigtime"))


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("BID", "list the money cards you bid by value, or BID 0 to bid nothing"),
        ("BID 3 0", "BID 0 bids nothing and stands alone"),
        ("BID three", "'three' is not a number"),
        ("BID $", "list the money cards you bid by value, or BID 0 to bid nothing"),
        ("BID $three", "'$three' is not a number"),
        ("BID $$3", "'$$3' is not a number"),
        ("AM", "list at least one act, the one you want most first"),
        ("PM", "list at least one act, the one you want most first"),
        ("HOOK", "name the card id of the act that takes the Hook"),
        ("HOOK a1", "HOOK takes a card id, not a code: A1 is T05, so write HOOK T05"),
        ("HOOK A9", "'A9' is not a card id"),
        ("HOOK T07 T08", "unexpected 'T08' at the end"),
        ("HEADLINER H9", "'H9' is not an act"),
    ],
)
def test_malformed_orders_say_why_and_list_the_accepted_forms(
    line: str, reason: str, grammar: Grammar
) -> None:
    message = error(line, grammar)
    assert reason in message
    form = grammar.form(line.split()[0])
    assert form is not None
    assert message.endswith("Accepted: " + " | ".join(form.forms))


def test_a_whole_phase_email_reads_in_order(grammar: Grammar) -> None:
    assert orders("BID 3 3 1\nAM A3 A1\nPM P2\nHEADLINER H1\nHOOK T05", grammar) == [
        Bid((3, 3, 1)),
        PreferAM(("T18", "T05")),
        PreferPM(("T14",)),
        PreferHeadliner(("H29",)),
        Hook("T05"),
    ]


def test_act_ids_come_from_the_data_file_the_game_uses(tmp_path: Path) -> None:
    acts = tmp_path / "bigtime_acts.csv"
    acts.write_text("id,name,kind,type,value,icons\nX1,Mystery,trouper,Variety,1,1\n")
    toml = tmp_path / "bigtime.toml"
    toml.write_text("rounds = 4\n")
    grammar = grammar_for("bigtime", data_file=toml)
    assert orders("AM x01", grammar) == [PreferAM(("X1",))]
    assert "'T07' is not an act" in error("AM T07", grammar)


def test_a_headliner_code_before_headliners_are_turned_up_says_when_they_are_taken() -> None:
    phase_one = grammar_for("bigtime", codes={"A1": "T05", "P1": "T02"})
    message = error("HEADLINER H1", phase_one)
    assert "'H1' would be a Headliner's code, but no Headliners are on offer now" in message
    assert "HEADLINER preferences are taken in phases 2 and 3 (codes now: A1, P1)" in message
