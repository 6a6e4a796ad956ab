"""Tournaments between computer players: `pbem simulate GAME --seats ...`."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.cli.tournament import Timing, tournament
from pbem.games.search import Budget

runner = CliRunner()
QUICK = Budget(iterations=1, cpu_seconds=60.0, wall_seconds=60.0)


@pytest.mark.parametrize("game", ["bigtime", "showmanager"])
def test_every_game_has_one_winner_share_and_every_level_is_timed(game: str) -> None:
    report = tournament(game, "standard", ["strong", "sensible", "random"], 3, seed=4, budget=QUICK)
    assert sum(report.wins.values()) == pytest.approx(3)
    assert set(report.wins) == set(report.timings) == {"strong", "sensible", "random"}
    for timing in report.timings.values():
        assert timing.decisions > 0 and 0 <= timing.median_ms <= timing.p95_ms


def test_levels_turn_round_the_table_so_the_same_level_everywhere_shares_evenly() -> None:
    report = tournament("bigtime", "standard", ["sensible", "sensible"], 4, seed=1)
    assert report.wins == {"sensible": 4.0}
    assert report.as_json()["win_rate"] == {"sensible": 1.0}


def test_sensible_beats_random_most_of_the_time() -> None:
    report = tournament("showmanager", "standard", ["sensible", "random"], 10, seed=1)
    assert report.wins["sensible"] >= 9


def test_timing_median_and_95th_percentile() -> None:
    timing = Timing.of([0.001 * n for n in range(1, 101)])
    assert timing.median_ms == pytest.approx(50.5)
    assert timing.p95_ms == pytest.approx(95.0)
    assert Timing.of([]).decisions == 0


def test_simulate_with_seats_prints_wins_and_decision_times_as_json() -> None:
    command = "simulate bigtime --players 2 --seats sensible,random --games 2 --seed 3 --json"
    result = runner.invoke(app, command.split())
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["seats"] == ["sensible", "random"] and data["games"] == 2
    assert sum(data["wins"].values()) == 2
    assert set(data["decision_ms"]["sensible"]) == {"median", "p95", "decisions"}


def test_simulate_with_seats_prints_a_summary() -> None:
    command = "simulate showmanager --players 2 --seats random,random --games 2"
    result = runner.invoke(app, command.split())
    assert result.exit_code == 0, result.output
    assert "random    won 2 (100.0%)" in result.output and "ms median" in result.output


@pytest.mark.parametrize(
    ("seats", "players", "told"),
    [
        ("strong,clever", "2", "'clever' is not a level; choose from strong, sensible, random"),
        ("strong,sensible", "3", "--seats names 2 levels but --players is 3"),
        ("sensible", "1", "standard is for 2, 3, 4, 5, 6 players, not 1"),
    ],
)
def test_simulate_refuses_bad_seats_in_one_line(seats: str, players: str, told: str) -> None:
    result = runner.invoke(
        app, ["simulate", "showmanager", "--players", players, "--seats", seats, "--games", "1"]
    )
    assert result.exit_code == 2
    assert told in result.stderr and "Traceback" not in result.output + result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_plain_simulate_still_plays_random_games() -> None:
    result = runner.invoke(app, ["simulate", "bigtime", "--games", "3", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["finished"] == data["games"] == 3
