"""Component data: the packaged files, a game master's own TOML and cards, and bad set-ups."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.games.base import NewGame
from pbem.games.data import package_file
from pbem.games.showmanager import ENGINE, ShowManagerError
from pbem.games.showmanager.actions import Hire
from pbem.games.showmanager.components import load_components


def own_data(tmp_path: Path, replace: dict[str, str], cards: str | None = None) -> Path:
    """A copy of the packaged TOML with some lines replaced, and optionally its own cards CSV."""
    text = package_file("showmanager", "showmanager.toml").read_text(encoding="utf-8")
    for old, new in replace.items():
        assert old in text
        text = text.replace(old, new)
    if cards is not None:
        (tmp_path / "cards").mkdir()
        (tmp_path / "cards" / "mine.csv").write_text(cards, encoding="utf-8")
        text = 'cards = "cards/mine.csv"\n' + text
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    return path


def packaged_cards() -> str:
    return package_file("showmanager", "showmanager_cards.csv").read_text(encoding="utf-8")


def test_packaged_data_has_120_cards_four_musicals_and_five_cities() -> None:
    data = load_components()
    assert len(data.cards) == 120 and len(data.provincials) == 12
    assert data.role_counts == (3, 4, 5, 6)
    assert len(data.cities) == 5
    assert load_components() is data


def test_gm_toml_names_its_cards_csv_relative_to_itself(tmp_path: Path) -> None:
    renamed = packaged_cards().replace("Anton Tanzbein", "Antonia Tanzbein")
    path = own_data(tmp_path, {"refresh_cost = 2": "refresh_cost = 5"}, renamed)
    data = load_components(path)
    assert data.refresh_cost == 5 and data.cards[65].name == "Antonia Tanzbein"
    state = ENGINE.new_game(NewGame(4, "standard", 1, data_file=path))
    assert ENGINE.load(ENGINE.dump(state)).data is data


def test_gm_toml_without_cards_key_uses_the_packaged_cards(tmp_path: Path) -> None:
    path = own_data(tmp_path, {"refresh_cost = 2": "refresh_cost = 3"})
    assert load_components(path).cards[65].name == "Anton Tanzbein"


def test_cards_naming_unknown_roles_are_refused(tmp_path: Path) -> None:
    broken = packaged_cards().replace("Sorcerer=7;Sir Wuff=2", "Sorcerrer=7;Sir Wuff=2")
    with pytest.raises(ShowManagerError, match="unknown roles"):
        load_components(own_data(tmp_path, {}, broken))


def test_too_few_cards_for_the_players_is_refused(tmp_path: Path) -> None:
    lines = packaged_cards().splitlines()
    path = own_data(tmp_path, {}, "\n".join(lines[:100]) + "\n")
    with pytest.raises(ShowManagerError, match="too few"):
        ENGINE.new_game(NewGame(6, "standard", 1, data_file=path))
    ENGINE.new_game(NewGame(4, "standard", 1, data_file=path))


def test_default_hires_the_cheapest_card_when_none_is_free(tmp_path: Path) -> None:
    path = own_data(
        tmp_path, {"agency_slot_costs = [0, 1, 2, 3]": "agency_slot_costs = [2, 1, 3, 4]"}
    )
    state = ENGINE.new_game(NewGame(4, "standard", 1, first_player=0, data_file=path))
    assert ENGINE.default_actions(state, 0) == [Hire(slot=1)]


@pytest.mark.parametrize(
    ("variant", "players"), [("premiere", 3), ("standard", 7), ("queen", 1), ("classic", 4)]
)
def test_unplayable_variant_or_player_count_is_an_error(variant: str, players: int) -> None:
    with pytest.raises(ShowManagerError):
        ENGINE.new_game(NewGame(players, variant, 1))


@pytest.mark.parametrize("setup", [{"deck": [121]}, {"deck": [5, 5]}, {"deals": []}])
def test_bad_setup_is_an_error(setup: dict[str, list[int]]) -> None:
    with pytest.raises(ShowManagerError):
        ENGINE.new_game(NewGame(4, "standard", 1, setup=setup))


def test_first_player_must_be_a_seat() -> None:
    with pytest.raises(ShowManagerError):
        ENGINE.new_game(NewGame(4, "standard", 1, first_player=4))
