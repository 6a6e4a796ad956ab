"""Names as players write them: case, spaces, hyphens, umlauts, longest match, data files."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.games.showmanager.actions import Loan, Stage
from pbem.orders import OrdersError, grammar_for, parse_orders
from pbem.orders.names import NameTable, spelling_key, spellings
from pbem.orders.vocabulary import show_manager_vocabulary


@pytest.mark.parametrize(
    "written", ["Köln", "KÖLN", "köln", "Koeln", "KOELN", "Koln", "koln", "Ko\u0308ln", "K-ö-l-n"]
)
def test_every_spelling_of_koeln_is_koeln(written: str) -> None:
    cities = show_manager_vocabulary().city_names
    match = cities.match(written.split())
    assert match is not None and match.name == "Köln"


@pytest.mark.parametrize(
    "written", ["King Lear", "KING LEAR", "kinglear", "King-Lear", "king  lear", "Die Miserablen"]
)
def test_names_ignore_case_spaces_and_hyphens(written: str) -> None:
    musicals = show_manager_vocabulary().musical_names
    match = musicals.match(written.split())
    assert match is not None
    assert (match.name, match.length) == ("King Lear", len(written.split()))


def test_umlaut_spellings_cover_e_and_dots_and_sharp_s() -> None:
    assert {"köln", "koeln", "koln"} <= spellings("Köln")
    assert spelling_key("Straße") in spellings("Strasse")
    assert spelling_key("Strasse") in spellings("Straße")


def test_the_longest_known_name_at_that_point_wins() -> None:
    table = NameTable.build(
        "musical", ["King", "King Lear"], [("King", "King"), ("King Lear", "King Lear")]
    )
    longest = table.match(["king", "lear", "5"])
    shortest = table.match(["king", "5"])
    assert longest is not None and (longest.name, longest.length) == ("King Lear", 2)
    assert shortest is not None and (shortest.name, shortest.length) == ("King", 1)


def test_a_full_role_name_beats_a_word_of_another_role() -> None:
    table = NameTable.build(
        "role",
        ["Prince", "Prince Consort"],
        [("Prince", "Prince"), ("Prince Consort", "Prince Consort")],
        [("Prince", "Prince Consort"), ("Consort", "Prince Consort")],
    )
    assert table.match(["prince"]) is not None
    assert table.match(["prince"]).name == "Prince"  # type: ignore[union-attr]
    assert table.match(["consort"]).name == "Prince Consort"  # type: ignore[union-attr]


def test_a_word_shared_by_two_roles_is_ambiguous_and_says_so(tmp_path: Path) -> None:
    data = tmp_path / "mine.toml"
    data.write_text(
        "agency_slot_costs = [0, 1, 2, 3]\n"
        '[[musical]]\nname = "Hamlet"\npremiere_name = "Weiler"\n'
        'roles = ["Prince Hamlet", "Prince of Norway", "Ophelia"]\n'
        '[[city]]\nname = "Bremen"\npremiere_name = "Bremerhaven"\n'
    )
    grammar = grammar_for("showmanager", data_file=data)
    parsed = parse_orders("STAGE HAMLET 1=Prince 2 3 IN BREMEN", grammar)
    (bad,) = parsed.errors
    assert "'Prince' could be Prince Hamlet or Prince of Norway: write more of it" in bad.reason
    parsed = parse_orders("STAGE weiler 1=Norway 2=prince hamlet 3 IN Bremerhaven", grammar)
    assert [line.order for line in parsed.orders] == [
        Stage("Hamlet", (1, 2, 3), "Bremen", ((1, "Prince of Norway"), (2, "Prince Hamlet")))
    ]


def test_a_game_masters_data_file_brings_its_own_names(tmp_path: Path) -> None:
    data = tmp_path / "edition.toml"
    data.write_text(
        "agency_slot_costs = [0, 1, 2, 3, 4]\n"
        '[[musical]]\nname = "Cats"\npremiere_name = "Katzen"\nroles = ["Tom", "Jerry"]\n'
        '[[city]]\nname = "München"\npremiere_name = "Munich"\n'
    )
    grammar = grammar_for("showmanager", data_file=data)
    parsed = parse_orders("LOAN KATZEN 2\nHIRE 4\nSTAGE cats 1 2 IN Muenchen\nLOAN WOLF 1", grammar)
    assert [line.order for line in parsed.orders][:1] == [Loan("Cats", 2)]
    assert [line.order for line in parsed.orders][2:] == [Stage("Cats", (1, 2), "München")]
    assert [error.number for error in parsed.errors] == [4]


def test_a_data_file_without_names_is_a_callers_error(tmp_path: Path) -> None:
    data = tmp_path / "empty.toml"
    data.write_text("starting_money = 3\n")
    with pytest.raises(OrdersError):
        grammar_for("showmanager", data_file=data)


def test_an_unknown_game_is_a_callers_error() -> None:
    with pytest.raises(OrdersError, match="unknown game 'chess'"):
        grammar_for("chess")
