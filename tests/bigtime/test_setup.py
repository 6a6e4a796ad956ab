"""Game and round set-up, fixed set-ups from transcripts, and a game master's own data file."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.games.base import NewGame
from pbem.games.bigtime import ENGINE, BigTimeSetupError
from pbem.games.bigtime.actions import Bid
from pbem.games.bigtime.components import acts_file, load_components
from pbem.games.data import package_file

from .helpers import TWO_PLAYER_DEAL, new_game, send

DATA = load_components()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_round_set_up_deals_rows_of_players_plus_one(players: int) -> None:
    state = new_game(players, seed=players)
    rows = [state.am_row, state.pm_row, state.coming_am, state.coming_pm]
    assert all(len(row) == players + 1 for row in [*rows, state.headliner_row])
    troupers = [card for row in rows for card in row]
    assert len(set(troupers)) == len(troupers)
    assert all(not DATA.acts[card].is_headliner for card in troupers)
    assert all(DATA.acts[card].is_headliner for card in state.headliner_row)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_starting_reviews_and_bonus_cards_follow_the_player_count(players: int) -> None:
    state = new_game(players, seed=11)
    reviews = [theater.review for theater in state.theaters]
    assert sorted(reviews) == sorted(DATA.reviews[players])
    bonus = DATA.bonus_card[players]
    for theater in state.theaters:
        assert sum(theater.hand) == sum(DATA.money_cards) + bonus.get(theater.review, 0)


def test_markers_start_on_distinct_starred_spaces() -> None:
    state = new_game(4, seed=3)
    assert sorted(state.chart.values()) == sorted(DATA.starred_spaces)
    assert list(state.chart) == list(DATA.act_types)


def test_the_seed_decides_everything_random() -> None:
    assert ENGINE.dump(new_game(3, seed=5)) == ENGINE.dump(new_game(3, seed=5))
    assert ENGINE.dump(new_game(3, seed=5)) != ENGINE.dump(new_game(3, seed=6))


def test_fixed_set_up_fixes_rows_markers_and_reviews() -> None:
    state = new_game(
        2,
        deals=[TWO_PLAYER_DEAL],
        opinion={"variety": 7, "Comedians": 2},
        reviews={1: "Smash"},
    )
    assert state.am_row == TWO_PLAYER_DEAL["am"]
    assert state.headliner_row == TWO_PLAYER_DEAL["headliners"]
    assert (state.chart["Variety"], state.chart["Comedians"]) == (7, 2)
    assert [theater.review for theater in state.theaters] == ["Flop", "Smash"]


def test_fixed_headliners_are_not_dealt_again_in_later_rounds() -> None:
    state = new_game(2, seed=2, deals=[TWO_PLAYER_DEAL])
    dealt = list(state.headliner_row)
    while state.round < 4:
        seat = ENGINE.awaiting(state)[0]
        state, _ = send(state, seat, *ENGINE.default_actions(state, seat))
        if state.phase == 1 and state.headliner_row[0] not in dealt:
            dealt += state.headliner_row
    assert len(dealt) == len(set(dealt)) == 4 * 3


def test_rounds_not_listed_in_deals_come_from_the_seed() -> None:
    second_round = {key: list(row) for key, row in TWO_PLAYER_DEAL.items()}
    state = new_game(2, deals=[{"am": ["T02", "T05", "T09"]}, second_round])
    assert state.am_row == ["T02", "T05", "T09"]
    assert not set(state.pm_row) & {"T02", "T05", "T09"}
    assert not set(state.headliner_row) & set(TWO_PLAYER_DEAL["headliners"])


@pytest.mark.parametrize(
    "setup",
    [
        {"deck": [1, 2]},
        {"deals": [{"am": ["T01", "T02"]}]},
        {"deals": [{"am": ["T01", "T02", "H25"]}]},
        {"deals": [{"am": ["T01", "T02", "T03"], "pm": ["T03", "T04", "T05"]}]},
        {"deals": [{"headliners": ["H25", "H26", "H27"]}, {"headliners": ["H25", "H28", "H29"]}]},
        {"opinion": {"Jugglers": 2}},
        {"opinion": {"Variety": 9}},
        {"opinion": {"Variety": 2, "Comedians": 2}},
        {"reviews": {0: "Boffo"}},
        {"reviews": {0: "Smash", 1: "Smash"}},
        {"reviews": {2: "Flop"}},
        {"reviews": {"alice@example.org": "Flop"}},
    ],
)
def test_unusable_set_up_is_an_error(setup: dict[str, object]) -> None:
    with pytest.raises(BigTimeSetupError):
        new_game(2, **setup)


@pytest.mark.parametrize("players", [1, 5])
def test_two_to_four_players(players: int) -> None:
    with pytest.raises(BigTimeSetupError):
        new_game(players)


def test_unknown_variant_is_an_error() -> None:
    with pytest.raises(BigTimeSetupError):
        ENGINE.new_game(NewGame(2, "premiere", 1))


def test_game_masters_data_file_names_its_acts_csv(tmp_path: Path) -> None:
    toml = package_file("bigtime", "bigtime.toml").read_text(encoding="utf-8")
    (tmp_path / "mine.toml").write_text(
        'acts = "my_acts.csv"\n' + toml.replace("variety_bonus = 1", "variety_bonus = 2"),
        encoding="utf-8",
    )
    acts = package_file("bigtime", "bigtime_acts.csv").read_text(encoding="utf-8")
    (tmp_path / "my_acts.csv").write_text(
        acts.replace("The Marvelous Mulligans", "The Mulligan Sisters"), encoding="utf-8"
    )
    assert acts_file(tmp_path / "mine.toml") == tmp_path / "my_acts.csv"
    state = ENGINE.new_game(NewGame(2, "standard", 1, data_file=tmp_path / "mine.toml"))
    assert state.data.acts["T01"].name == "The Mulligan Sisters"
    assert state.data.variety_bonus == 2
    assert ENGINE.load(ENGINE.dump(state)).data is state.data


def test_data_file_without_acts_key_uses_the_packaged_acts(tmp_path: Path) -> None:
    toml = package_file("bigtime", "bigtime.toml").read_text(encoding="utf-8")
    (tmp_path / "plain.toml").write_text(toml, encoding="utf-8")
    assert acts_file(tmp_path / "plain.toml") == package_file("bigtime", "bigtime_acts.csv")
    assert load_components(tmp_path / "plain.toml").acts == DATA.acts


def test_data_file_without_acts_key_uses_the_acts_csv_beside_it(tmp_path: Path) -> None:
    toml = package_file("bigtime", "bigtime.toml").read_text(encoding="utf-8")
    (tmp_path / "beside.toml").write_text(toml, encoding="utf-8")
    acts = package_file("bigtime", "bigtime_acts.csv").read_text(encoding="utf-8")
    (tmp_path / "bigtime_acts.csv").write_text(acts.replace("Sid Silly", "Sid Sillier"), "utf-8")
    assert acts_file(tmp_path / "beside.toml") == tmp_path / "bigtime_acts.csv"
    assert load_components(tmp_path / "beside.toml").acts["H44"].name == "Sid Sillier"


def test_broken_data_file_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "broken.toml").write_text("rounds = 4\n", encoding="utf-8")
    with pytest.raises(BigTimeSetupError):
        load_components(tmp_path / "broken.toml")


def test_parsed_data_is_cached() -> None:
    assert load_components() is load_components()


def test_a_started_game_accepts_orders_at_once() -> None:
    state = new_game(2)
    state, events = send(state, 0, Bid(()))
    assert events and ENGINE.awaiting(state) == (1,)
