"""`pbem archive GAME [--out DIR]`: a finished game's page and transcript; a polite one-line
refusal (exit 1) for a game still being played or no game at all."""

from __future__ import annotations

from pathlib import Path

from pbem.cli.replay import replay
from tests.archive.samples import play_sample
from tests.cli.conftest import Pbem

START = ("--game", "bigtime", "--player", "a@example.org", "--player", "b@example.org")


def test_a_finished_game_is_written_as_page_and_transcript(
    pbem: Pbem, cli_env: dict[str, str], tmp_path: Path
) -> None:
    game = play_sample("bigtime-3p", cli_env["PBEM_DATABASE_URL"])
    ran = pbem("archive", game.game_id, "--out", "archived")
    assert ran.code == 0, ran.err
    page = tmp_path / "archived" / f"{game.game_id}.html"
    gm_file = tmp_path / "archived" / f"{game.game_id}.transcript.yaml"
    assert "Final standings" in page.read_text(encoding="utf-8")
    assert "keep it private" in gm_file.read_text(encoding="utf-8")
    assert replay(gm_file).mismatches == []
    assert "archived/bt-1.html (public page)" in ran.out and "private" in ran.out


def test_a_game_still_being_played_has_no_archive_yet(pbem: Pbem, tmp_path: Path) -> None:
    assert pbem("start", *START).code == 0
    ran = pbem("archive", "bt-1")
    assert ran.code == 1
    refusal = "Error: game bt-1 is still being played; its archive is ready once it is over\n"
    assert ran.err == refusal
    assert not list(tmp_path.glob("bt-1*"))


def test_an_unknown_game_is_refused_in_one_line(pbem: Pbem) -> None:
    assert pbem("start", *START).code == 0
    ran = pbem("archive", "sm-9")
    assert (ran.code, ran.out, ran.err) == (1, "", "Error: there is no game 'sm-9'\n")
