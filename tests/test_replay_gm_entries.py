"""A transcript's `gm:` entries are carried out through the moderator's GM functions: a malformed
one is a transcript error naming the entry (exit 1), never a usage screen or a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from pbem.cli import app

runner = CliRunner()


def transcript(tmp_path: Path, gm: str) -> Path:
    data = {
        "game": "bigtime",
        "seed": 3,
        "players": [{"email": "ann@example.org"}, {"email": "bo@example.org"}],
        "messages": [{"from": "ann@example.org", "body": "BID 0"}, {"gm": gm}],
    }
    path = tmp_path / "game.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("entry", "says"),
    [
        ("frobnicate", "invalid choice: 'frobnicate'"),
        ("set-money", "the following arguments are required: player, amount"),
        ("set-money ann@example.org lots", "invalid int value: 'lots'"),
        ("undo --to", "expected one argument"),
        ("pause --why 'unclosed", "No closing quotation"),
        ("remove nobody@example.org", "'nobody@example.org' is not a player of bt-1"),
        ("resume", "is running, not paused"),
        ("", "the entry is empty"),
    ],
)
def test_a_malformed_gm_entry_is_a_transcript_error_naming_it(
    tmp_path: Path, entry: str, says: str
) -> None:
    result = runner.invoke(app, ["replay", str(transcript(tmp_path, entry))])
    assert result.exit_code == 1
    assert result.output.startswith(f"Error: gm entry {entry!r}: ")
    assert says in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert "Usage" not in result.output and "Traceback" not in result.output


def test_a_well_formed_gm_entry_is_carried_out(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["replay", "--json", str(transcript(tmp_path, "pause --why 'a holiday'"))]
    )
    assert result.exit_code == 0, result.output
    assert '"finished": false' in result.output
