"""`pbem archive` of a game still open for sign-up says so, in one line (exit 1): play-testing
got "there is no game 'bt-2'" while `pbem games` and LIST offered it."""

from __future__ import annotations

from pathlib import Path

from tests.cli.conftest import Pbem


def test_a_game_open_for_sign_up_has_not_started(pbem: Pbem, tmp_path: Path) -> None:
    opened = pbem("open", "--game", "bigtime", "--seats", "3-4")
    assert opened.code == 0, opened.err
    game = opened.out.split()[0]
    ran = pbem("archive", game)
    assert (ran.code, ran.out) == (1, "")
    assert ran.err == f"Error: {game} has not started yet: it is still open for sign-up\n"
    assert not list(tmp_path.glob(f"{game}*"))
