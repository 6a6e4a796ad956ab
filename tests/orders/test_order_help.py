"""HELP is written from the grammar tables: it shows every form, and each example parses."""

from __future__ import annotations

import pytest

from pbem.orders import grammar_for, help_text, parse_orders

# Codes under which the Big Time! examples (AM A3 A1 A2, PM P2 P3, HEADLINER H2 H3) are legal:
# those of a game of two, the fewest acts a row has (play-testing: A5 was no code in a game of 3).
EXAMPLE_CODES = {
    "A1": "T01", "A2": "T05", "A3": "T03", "P2": "T02", "P3": "T04", "H2": "H26", "H3": "H29",
}  # fmt: skip
GAMES = [("showmanager", "standard"), ("showmanager", "premiere"), ("bigtime", "standard")]


@pytest.mark.parametrize(("game", "variant"), GAMES)
def test_help_shows_every_form_and_example_of_the_grammar(game: str, variant: str) -> None:
    grammar = grammar_for(game, variant)
    text = help_text(game, variant)
    for form in (*grammar.orders, *grammar.commands):
        for shape in (*form.forms, *form.examples):
            assert shape in text, shape


@pytest.mark.parametrize(("game", "variant"), GAMES)
def test_every_example_in_help_parses_as_its_own_order(game: str, variant: str) -> None:
    grammar = grammar_for(game, variant, codes=EXAMPLE_CODES)
    for form in (*grammar.orders, *grammar.commands):
        for example in form.examples:
            parsed = parse_orders(example, grammar)
            assert parsed.errors == (), [str(error) for error in parsed.errors]
            assert parsed.orders, example


def test_premiere_help_shows_premiere_names_first() -> None:
    text = help_text("showmanager", "premiere")
    assert "Freudi (also Wolf)" in text
    assert "Duisburg (also Köln)" in text
    assert "STAGE MISS HANOI" in text


def test_standard_help_names_musicals_with_their_roles_and_the_cities() -> None:
    text = help_text("showmanager")
    assert "Queenie: Queenie, Prince Consort, Court Jester, Lady-in-Waiting" in text
    assert "New York, Hamburg, Köln, Stuttgart, Troisdorf" in text
    assert "Freudi" not in text


def test_big_time_help_lists_the_codes_of_the_phase() -> None:
    text = help_text("bigtime", codes={"A1": "T05", "P1": "T02"})
    assert "A1=T05, P1=T02" in text


def test_help_lines_fit_an_email() -> None:
    for game, variant in GAMES:
        assert max(len(line) for line in help_text(game, variant).splitlines()) <= 76


@pytest.mark.parametrize(("game", "variant"), GAMES)
def test_help_teaches_what_is_forgiven_and_what_is_not(game: str, variant: str) -> None:
    text = " ".join(help_text(game, variant).split())  # wrapping aside
    assert '("Here are my orders:", greetings, # comments) are ignored and listed' in text
    assert "A misspelt order word followed by what its order takes (Hrie 2) is an error" in text
    assert 'Nothing at or below the line "-- write your orders above this line --" is read' in text
    assert "HELP, STATUS, HISTORY and BACK may be followed by other words on their line" in text
    assert "RESIGN alone on its line" in text


def test_help_shows_money_written_with_a_dollar() -> None:
    assert "BID $3 $1" in help_text("bigtime")
    assert "$ or not" in help_text("bigtime")
    assert "LOAN WOLF#2 $3" in help_text("showmanager")


def test_the_big_time_help_names_no_show_manager_city() -> None:
    """The commands' examples are shared by both games: a Show Manager city in The Big Time!'s
    HELP would puzzle its players."""
    text = help_text("bigtime", "standard").lower()
    for city in ("koeln", "köln", "hamburg", "new york", "stuttgart", "troisdorf"):
        assert city not in text, city
