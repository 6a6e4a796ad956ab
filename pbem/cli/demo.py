"""`pbem demo`: a whole game of computer players run by the daemon; no mail server needed.

The demo uses the embedded default (SQLite and the local Maildir). The bots get their status mail
and answer it through the same path as people's email; every email of the game is filed in the
Maildir's `sent` folder, where it can be read.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import func
from sqlmodel import col, select

from pbem.daemon import Daemon
from pbem.games.base import Outcome
from pbem.moderator.addresses import bot_address
from pbem.moderator.desk import Desk
from pbem.moderator.letters import final_standings
from pbem.moderator.loaded import LoadedGame, load_game
from pbem.moderator.start import GameRequest, PlayerSpec, start_game
from pbem.settings import DEFAULT_MAILDIR, Settings
from pbem.store import OutboxRow, get_game, session_scope

DEMO_DATABASE = "pbem-demo.sqlite3"
DEMO_DOMAIN = "demo.invalid"
BOT_NAMES = ("Ada", "Brecht", "Cleo", "Dmitri", "Edith", "Fritz")
# A game of bots ends within one cycle; more than a few means a bug.
MAX_CYCLES = 10


class DemoError(RuntimeError):
    """The demo game did not finish."""


@dataclass(frozen=True)
class DemoResult:
    game_id: str
    names: list[str]
    outcome: Outcome
    standings: list[str]  # the final standings, one line a place (`standing_lines`)
    emails_sent: int
    sent_folder: Path
    cycles: int


def demo_settings(workdir: Path) -> Settings:
    maildir = os.environ.get("PBEM_MAILDIR") or str(workdir / DEFAULT_MAILDIR)
    return Settings(
        database_url=f"sqlite:///{workdir / DEMO_DATABASE}",
        address=f"pbem@{DEMO_DOMAIN}",
        maildir=maildir,
    )


def run_demo(game: str, players: int, seed: int, workdir: Path) -> DemoResult:
    """Play one game of `game` between `players` computer players to its end."""
    daemon = Daemon(demo_settings(workdir))
    try:
        request = GameRequest(
            game=game,
            seed=seed,
            players=tuple(
                # Sensible players: a whole game in seconds, where the strong level (a new
                # seat's default) thinks up to a second or two a decision (docs/bots.md).
                PlayerSpec(bot_address(name), name, bot=name, level="sensible")
                for name in bot_names(players)
            ),
        )
        with session_scope(daemon.engine) as session:
            game_id = start_game(Desk(session, daemon.settings), request).id
        cycles = 0
        while _running(daemon, game_id):
            if cycles >= MAX_CYCLES:
                raise DemoError(f"{game_id} did not finish in {MAX_CYCLES} daemon cycles")
            daemon.cycle()
            cycles += 1
        with session_scope(daemon.engine) as session:
            loaded = load_game(session, game_id)
            outcome = loaded.engine.outcome(loaded.state)
            names = loaded.names
            standings = standing_lines(loaded)
            written = session.exec(
                select(func.count()).select_from(OutboxRow).where(col(OutboxRow.game_id) == game_id)
            ).one()
        sent = Path(daemon.settings.maildir) / "sent"
        return DemoResult(game_id, names, outcome, standings, written, sent, cycles)
    finally:
        daemon.close()


def bot_names(players: int) -> list[str]:
    """`players` names, the six of `BOT_NAMES` first: as many as asked, so that a count the game
    does not allow is refused as asked ("not 999"), not as the names there were ("not 6")."""
    extra = (f"Bot {number}" for number in range(len(BOT_NAMES) + 1, players + 1))
    return [*BOT_NAMES, *extra][:players]


def standing_lines(game: LoadedGame) -> list[str]:
    """The finished game's standings as the archive page shows them: equal places shared, and
    what decides the winner. The Big Time!: posterity, never money (every hand is replenished at
    the last clean-up, so it says nothing); Show Manager: points, then money."""
    money = [standing.money for standing in game.engine.outcome(game.state).standings]
    lines = []
    for place, cash in zip(final_standings(game), money, strict=True):
        score = (
            f"posterity {place.points}"
            if game.row.game == "bigtime"
            else f"{place.points} points, money ${cash}"
        )
        ahead = f", ahead {place.ahead}" if place.ahead else ""
        lines.append(f"{place.place}. {place.name}: {score}{ahead}")
    return lines


def _running(daemon: Daemon, game_id: str) -> bool:
    with session_scope(daemon.engine) as session:
        row = get_game(session, game_id)
        return row is not None and row.status == "running"
