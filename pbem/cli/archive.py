"""`pbem archive GAME [--out DIR]`: a finished game's public page and the GM's transcript.

`GAME.html` is for anyone (names only, no address, seed or hand); `GAME.transcript.yaml` holds
the seed and every address and is the game master's: `pbem replay` plays it to the same end.
"""

from __future__ import annotations

from pathlib import Path

import typer
import yaml
from sqlmodel import Session

from pbem.archive.page import NotArchivable, archive_page, finished_game
from pbem.archive.transcript import transcript
from pbem.cli.database import open_configured


def archive(
    game: str = typer.Argument(..., help="The game's id, e.g. sm-12."),
    out: Path = typer.Option(
        Path("."), "--out", file_okay=False, help="The folder to write both files to."
    ),
) -> None:
    """Write a finished game's public page (GAME.html) and the game master's transcript."""
    engine, _ = open_configured(create=False)
    with Session(engine) as session:
        try:
            loaded = finished_game(session, game)
        except NotArchivable as exc:
            typer.echo(f"Error: {exc}", err=True)
            raise typer.Exit(1) from exc
        page = archive_page(session, loaded)
        written = transcript(session, loaded)
    html, gm_file = out / f"{loaded.id}.html", out / f"{loaded.id}.transcript.yaml"
    header = (
        f"# The game master's transcript of {loaded.id}: it holds the seed and every player's\n"
        "# address, so keep it private. `pbem replay` plays it to the game's end.\n"
    )
    try:
        out.mkdir(parents=True, exist_ok=True)
        html.write_text(page, encoding="utf-8")
        gm_file.write_text(
            header + yaml.safe_dump(written.data, sort_keys=False, allow_unicode=True, width=100),
            encoding="utf-8",
        )
    except OSError as exc:
        typer.echo(f"Error: cannot write to {out}: {exc.strerror}", err=True)
        raise typer.Exit(1) from exc
    typer.echo(f"{html} (public page)")
    typer.echo(f"{gm_file} (the game master's transcript: private)")
    for gap in written.gaps:
        typer.echo(f"Warning: {gap}; the transcript replays to a different end", err=True)
