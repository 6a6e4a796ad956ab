"""Show Manager's order forms (ORDERS.md), what they read into, and how bad forms are refused."""

from __future__ import annotations

import pytest

from pbem.games.showmanager import ENGINE
from pbem.games.showmanager.actions import Hire, Loan, Refresh, Stage
from pbem.orders import Grammar, Order, grammar_for, parse_orders
from pbem.orders.showmanager import MAX_REFRESHES
from tests.orders.reading import error, orders
from tests.showmanager.sm_tables import WOLF_18, WOLF_24, force_stage, fresh, give


@pytest.fixture(scope="module")
def grammar() -> Grammar:
    return grammar_for("showmanager")


@pytest.mark.parametrize(
    ("line", "order"),
    [
        ("LOAN WOLF 5", Loan("Wolf", 5)),
        ("loan wolf#2 3", Loan("Wolf", 3, 2)),
        ("LOAN King Lear #1 10", Loan("King Lear", 10, 1)),
        ("LOAN Die Miserablen 4", Loan("King Lear", 4)),
        ("LOAN WOLF $5", Loan("Wolf", 5)),
        ("loan wolf#2 $3", Loan("Wolf", 3, 2)),
        ("LOAN WOLF $ 5", Loan("Wolf", 5)),
        ("HIRE 0", Hire(slot=0)),
        ("hire 3", Hire(slot=3)),
        ("HIRE #57", Hire(card=57)),
        ("HIRE # 57", Hire(card=57)),
        ("Hire: 2", Hire(slot=2)),
        ("HIRE 2.", Hire(slot=2)),
        ("- HIRE 1", Hire(slot=1)),
        ("STAGE QUEENIE 14 27 33 109 IN KOELN", Stage("Queenie", (14, 27, 33, 109), "Köln")),
        ("STAGE WOLF 1, 2, 3", Stage("Wolf", (1, 2, 3))),
        (
            "STAGE QUEENIE 1 2 3 4=Lady IN KOELN",
            Stage("Queenie", (1, 2, 3, 4), "Köln", ((4, "Lady-in-Waiting"),)),
        ),
        ("stage miss hanoi 1 2 3 4 in duisburg", Stage("Queenie", (1, 2, 3, 4), "Köln")),
        ("STAGE KATZ 1 2 3 4 5 6 IN BROADWAY", Stage("Ballet", (1, 2, 3, 4, 5, 6), "New York")),
        ("STAGE Ballet 1 2 3 4 5 6 IN New-York", Stage("Ballet", (1, 2, 3, 4, 5, 6), "New York")),
    ],
)
def test_one_line_reads_as_one_action(line: str, order: Order, grammar: Grammar) -> None:
    assert orders(line, grammar) == [order]


def test_refresh_with_a_count_is_that_many_refreshes(grammar: Grammar) -> None:
    assert orders("REFRESH", grammar) == [Refresh()]
    assert orders("REFRESH 3", grammar) == [Refresh()] * 3


@pytest.mark.parametrize("count", ["0", str(MAX_REFRESHES + 1), "many"])
def test_refresh_counts_out_of_range_are_errors(count: str, grammar: Grammar) -> None:
    assert "REFRESH [times]" in error(f"REFRESH {count}", grammar)


def test_explicit_casting_pairs_cards_with_roles_by_any_unambiguous_word(grammar: Grammar) -> None:
    line = "STAGE QUEENIE 14=Queenie 27=Jester 33=lady 109 = Prince Consort IN KOELN"
    assert orders(line, grammar) == [
        Stage(
            "Queenie",
            (14, 27, 33, 109),
            "Köln",
            (
                (14, "Queenie"),
                (27, "Court Jester"),
                (33, "Lady-in-Waiting"),
                (109, "Prince Consort"),
            ),
        )
    ]


def test_a_role_written_with_spaces_for_hyphens_is_one_role(grammar: Grammar) -> None:
    assert orders("STAGE QUEENIE 1=lady in waiting 2 3 4", grammar) == [
        Stage("Queenie", (1, 2, 3, 4), None, ((1, "Lady-in-Waiting"),))
    ]


def test_a_role_of_another_musical_is_an_error_listing_this_musicals_roles(
    grammar: Grammar,
) -> None:
    message = error("STAGE WOLF 1=Jester 2 3", grammar)
    assert "'Jester' is not a role" in message
    assert "Sir Wuff, Red Riding Hood, Grandmother" in message


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("LOAN", "missing: a musical (choose one of Wolf, Queenie, King Lear, Ballet)"),
        ("LOAN HAMLET 5", "'HAMLET' is not a musical"),
        ("LOAN WOLF", "the loan in points is missing"),
        ("LOAN WOLF five", "the loan in points must be a whole number, not 'five'"),
        ("LOAN WOLF # 5", "the loan in points is missing"),
        ("LOAN WOLF 5 6", "unexpected '6' at the end"),
        ("HIRE", "the agency slot is missing"),
        ("HIRE $2", "the agency slot must be a whole number, not '$2'"),  # a slot is no money
        ("LOAN WOLF $", "the loan in points is missing"),
        ("HIRE 4", "there is no slot 4: slots are 0 to 3 (to hire card 4 by its id write HIRE #4)"),
        ("HIRE #", "the card id after # is missing"),
        ("HIRE 2 3", "unexpected '3' at the end"),
        ("STAGE WOLF", "list the card ids of the artistes you stage"),
        ("STAGE 1 2 3", "'1' is not a musical"),
        ("STAGE WOLF 1 2 3 KOELN", "write IN before the city: IN Köln"),
        ("STAGE WOLF 1 2 three", "expected a card id or IN <city>, found 'three'"),
        ("STAGE WOLF 1 2 3 IN", "missing: a city"),
        ("STAGE WOLF 1 2 3 IN PARIS", "'PARIS' is not a city"),
        ("STAGE WOLF 1 2 3 IN KOELN NOW", "unexpected 'NOW' at the end"),
        ("STAGE WOLF 1= 2 3", "'2' is not a role"),
    ],
)
def test_malformed_orders_say_why_and_list_the_accepted_forms(
    line: str, reason: str, grammar: Grammar
) -> None:
    message = error(line, grammar)
    assert reason in message
    word = line.split()[0]
    form = grammar.form(word)
    assert form is not None
    assert message.endswith("Accepted: " + " | ".join(form.forms))


def test_an_error_names_the_line_number_and_text(grammar: Grammar) -> None:
    parsed = parse_orders("Hello\n\nHIRE 9\n", grammar)
    (bad,) = parsed.errors
    assert (bad.number, bad.text) == (3, "HIRE 9")
    assert str(bad).startswith('line 3 "HIRE 9": there is no slot 9')


def test_premiere_names_are_shown_in_a_premiere_game_but_both_are_accepted() -> None:
    premiere = grammar_for("showmanager", "premiere")
    assert orders("STAGE WOLF 1 2 3 IN KOELN", premiere) == [Stage("Wolf", (1, 2, 3), "Köln")]
    assert orders("STAGE FREUDI 1 2 3 IN DUISBURG", premiere) == [Stage("Wolf", (1, 2, 3), "Köln")]
    assert "choose one of Freudi, Miss Hanoi, Die Miserablen, Katz" in error("LOAN X 1", premiere)


def test_an_example_staging_reads_back_as_the_board_spells_its_city(grammar: Grammar) -> None:
    state = fresh(2, "queen", first=0)  # two productions of each musical
    force_stage(state, 0, "Wolf", WOLF_24, "Köln")
    give(state, 0, *WOLF_18)
    state.turn = 0
    (line,) = (line for line in ENGINE.legal_summary(state, 0) if line.startswith("STAGE"))
    assert line == "STAGE WOLF 68 33 87 IN KÖLN"
    stage = Stage("Wolf", WOLF_18, "Köln")
    for written in (line, "STAGE WOLF 68 33 87 IN Köln", "STAGE WOLF 68 33 87 IN KOELN"):
        assert orders(written, grammar) == [stage]
    assert ENGINE.check(state, 0, stage) is None


def test_an_example_copied_with_its_placeholder_is_told_what_to_write_there() -> None:
    # Found in play-testing: "LOAN KING LEAR#2 <1-6 points>", copied from the status, was told
    # "must be a whole number, not '<1-6'".
    message = error("LOAN KING LEAR#2 <1-6 points>", grammar_for("showmanager"))
    assert "<1-6 points> is the example's placeholder: write the loan in points there, e.g. 3" in (
        message
    )
