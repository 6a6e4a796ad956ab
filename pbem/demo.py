"""`pbem demo`: a whole game played through the daemon on this machine, no mail server needed.

The players are demo seats that never write: each turn's deadline passes at once (the demo's clock
jumps a day per cycle) and the `default` policy plays the engine's default orders for them. So
every email a real game sends (welcome, status after each phase, final result) is written, by the
daemon's own cycle, into the Maildir's `sent` folder where it can be read.

Computer players (`PlayerSpec(bot=...)`) would finish the game inside `start_game`, but bots get
no mail, so there would be nothing to read.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from pbem.daemon import Daemon
from pbem.games.base import Outcome
from pbem.moderator.desk import Desk
from pbem.moderator.loaded import load_game
from pbem.moderator.start import GameRequest, PlayerSpec, start_game
from pbem.settings import DEFAULT_MAILDIR, Settings
from pbem.store import get_game, session_scope, utc_now

DEMO_DATABASE = "pbem-demo.sqlite3"
DEMO_DOMAIN = "demo.invalid"
TURN = timedelta(hours=24)
# Far more cycles than a game has turns; reaching it means the game is stuck, a bug.
MAX_CYCLES = 10_000


class DemoError(RuntimeError):
    """The demo game did not finish."""


@dataclass
class JumpingClock:
    """A clock that moves on only when told, a turn at a time."""

    now: datetime = field(default_factory=utc_now)

    def __call__(self) -> datetime:
        return self.now

    def next_turn(self) -> None:
        self.now += TURN + timedelta(minutes=1)


@dataclass(frozen=True)
class DemoResult:
    game_id: str
    names: list[str]
    outcome: Outcome
    emails_sent: int
    sent_folder: Path
    cycles: int


def demo_settings(workdir: Path) -> Settings:
    maildir = os.environ.get("PBEM_MAILDIR") or str(workdir / DEFAULT_MAILDIR)
    return Settings(
        database_url=f"sqlite:///{workdir / DEMO_DATABASE}", address=f"pbem@{DEMO_DOMAIN}",
        maildir=maildir,
    )


def run_demo(game: str, players: int, seed: int, workdir: Path) -> DemoResult:
    """Play one game of `game` between `players` demo seats to its end; return the result."""
    clock = JumpingClock()
    daemon = Daemon(demo_settings(workdir), clock=clock)
    try:
        request = GameRequest(
            game=game, seed=seed, deadline_hours=TURN.total_seconds() / 3600, policy="default",
            players=tuple(
                PlayerSpec(f"player{n}@{DEMO_DOMAIN}", f"Player {n}") for n in range(1, players + 1)
            ),
        )
        with session_scope(daemon.engine) as session:
            game_id = start_game(Desk(session, daemon.settings, clock), request).id
        sent, cycles = daemon.cycle().outbox.sent, 1
        while _running(daemon, game_id):
            if cycles >= MAX_CYCLES:
                raise DemoError(f"{game_id} did not finish in {MAX_CYCLES} turns")
            clock.next_turn()
            sent += daemon.cycle().outbox.sent
            cycles += 1
        with session_scope(daemon.engine) as session:
            loaded = load_game(session, game_id)
            outcome = loaded.engine.outcome(loaded.state)
            names = loaded.names
        return DemoResult(game_id, names, outcome, sent, Path(daemon.settings.maildir) / "sent",
                          cycles)
    finally:
        daemon.close()


def _running(daemon: Daemon, game_id: str) -> bool:
    with session_scope(daemon.engine) as session:
        row = get_game(session, game_id)
        return row is not None and row.status == "running"
