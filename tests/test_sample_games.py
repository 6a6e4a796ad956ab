"""Golden transcripts: every game in sample_games/ replays through the moderator to its `expect`,
and `pbem replay --json` prints REPLAY.md's fields."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from pbem.cli import app
from pbem.cli.replay import replay

SAMPLES = sorted((Path(__file__).parent.parent / "sample_games").glob("*.yaml"))
FIELDS = {
    "game",
    "variant",
    "finished",
    "winner",
    "scores",
    "money",
    "rejected",
    "board",
    "replies",
}


def test_there_is_a_sample_game_for_each_variant_asked_for():
    games = {(t["game"], t["variant"], len(t["players"])) for t in map(_load, SAMPLES)}
    assert {
        ("showmanager", "standard", 2),
        ("showmanager", "queen", 4),
        ("showmanager", "premiere", 5),
        ("bigtime", "standard", 3),
        ("bigtime", "standard", 4),
    } <= games


def _load(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_sample_game_replays_to_its_expectations(path):
    result = replay(path)
    assert result.mismatches == []
    assert result.summary["finished"] is True


def test_samples_between_them_cover_the_awkward_emails():
    bodies = [m for t in map(_load, SAMPLES) for m in t["messages"]]
    assert any("html" in m for m in bodies)
    assert any("wrote:" in m.get("body", "") for m in bodies)
    assert any("\n-- \n" in m.get("body", "") for m in bodies)
    assert any(m.get("gm", "").startswith("undo") for m in bodies)
    assert all(_load(p)["expect"]["rejected"] for p in SAMPLES)


def test_replay_json_prints_the_fields_of_replay_md():
    result = CliRunner().invoke(app, ["replay", str(SAMPLES[0]), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert set(summary) == FIELDS


def test_replay_exits_1_when_an_expectation_fails(tmp_path):
    transcript = _load(SAMPLES[0])
    transcript["expect"]["finished"] = False
    broken = tmp_path / "broken.yaml"
    broken.write_text(yaml.safe_dump(transcript), encoding="utf-8")
    assert CliRunner().invoke(app, ["replay", str(broken)]).exit_code == 1
