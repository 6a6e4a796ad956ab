"""Benchmark 3: one order's cost with 10 and with 10,000 games in the database, and peak memory.

    python -m bench.scale [--quick]

On SQLite and on PostgreSQL (127.0.0.1:5432, a database of its own, dropped afterwards): 10 Big
Time! games are started for real; for the large case the first is copied (games, seats and
history rows with new ids, addresses and secrets, bulk-inserted 1,000 rows a statement) until
there are 10,000, then (PostgreSQL) ANALYZEd as autovacuum would. Mail goes through the local
Maildir, so only pbem and the database are measured. Each order is one email delivered to the
inbox and one `Daemon.cycle()` (intake, deadlines, outbox); 60 orders (two waves over the 10
games). The two cases take their orders in turn, one of each at a time, so that a change in the
machine's speed during the run (this machine's reference workload moved 20% and more within
minutes) falls on both alike. Then `pbem run --once` takes one more wave in a subprocess, whose
peak RSS is read with wait4.

Targets: the time per order flat within 20% from 10 to 10,000 games; peak RSS under 150 MB.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, insert, text, update
from sqlmodel import Session, col, select

from bench.players import PLAYERS, player_address, start_games, wave_emails, waves
from bench.servers import MODERATOR, pbem_environment, postgres_database
from pbem.daemon import Daemon
from pbem.mail.maildir import deliver
from pbem.settings import Settings
from pbem.store import GameRow, HistoryRow, OutboxRow, SeatRow, new_secret
from pbem.store.tables import CounterRow, table_of

REAL_GAMES = 10
BATCH = 1000


@dataclass(frozen=True)
class Figures:
    games: int
    per_order: list[float]
    peak_rss_mb: float

    @property
    def median_ms(self) -> float:
        return statistics.median(self.per_order) * 1000


def copy_game(engine: Engine, template: str, first_number: int, last_number: int) -> None:
    """Copies of game `template` numbered first_number..last_number (bt-N), in bulk."""
    with Session(engine) as session:
        game = session.get(GameRow, template)
        assert game is not None
        game_values = game.model_dump()
        seats = [
            seat.model_dump(exclude={"id"})
            for seat in session.exec(select(SeatRow).where(col(SeatRow.game_id) == template))
        ]
        history = [
            entry.model_dump(exclude={"id"})
            for entry in session.exec(select(HistoryRow).where(col(HistoryRow.game_id) == template))
        ]
    tag = template.split("-")[0]
    for start in range(first_number, last_number + 1, BATCH):
        numbers = range(start, min(start + BATCH, last_number + 1))
        games: list[dict[str, Any]] = []
        seat_rows: list[dict[str, Any]] = []
        history_rows: list[dict[str, Any]] = []
        for number in numbers:
            game_id = f"{tag}-{number}"
            games.append({**game_values, "id": game_id})
            secrets: list[str] = []
            for seat in seats:
                secrets.append(new_secret(secrets))
                seat_rows.append(
                    {
                        **seat,
                        "game_id": game_id,
                        "secret": secrets[-1],
                        "address": player_address(number, seat["position"]),
                    }
                )
            history_rows += [{**entry, "game_id": game_id} for entry in history]
        with Session(engine) as session:
            for model, rows in ((GameRow, games), (SeatRow, seat_rows), (HistoryRow, history_rows)):
                session.execute(insert(table_of(model)), rows)
            session.execute(
                update(CounterRow)
                .where(col(CounterRow.name) == f"game-id:{tag}")
                .values(value=numbers[-1])
            )
            session.commit()
    if engine.dialect.name == "postgresql":
        # Autovacuum would analyze the new rows in a while; a benchmark cannot wait for it, and
        # without statistics the planner guesses the tables are small.
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.execute(text("ANALYZE"))


def statuses_sent_to(engine: Engine, address: str) -> list[bytes]:
    with Session(engine) as session:
        statement = (
            select(OutboxRow.raw)
            .where(col(OutboxRow.to_address) == address)
            .order_by(col(OutboxRow.id))
        )
        return list(session.exec(statement).all())


def order_for(engine: Engine, address: str) -> bytes:
    [email] = wave_emails([address], statuses_sent_to(engine, address))
    return email


def peak_rss_of_one_cycle(settings: Settings) -> float:
    """MB: the peak resident size of `pbem run --once`."""
    process = subprocess.Popen(
        ["pbem", "run", "--once"],
        env=pbem_environment(settings),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise RuntimeError(f"pbem run --once exited with {process.returncode}")
    return usage.ru_maxrss / 1024  # kilobytes on Linux


@dataclass
class Case:
    """One database with `games` games and the daemon over it, taking its orders."""

    games: int
    settings: Settings
    daemon: Daemon
    maildir: Path
    orders: list[list[str]]
    per_order: list[float]

    def take(self, address: str) -> None:
        deliver(self.maildir, order_for(self.daemon.engine, address))
        began = time.perf_counter()
        stored = self.daemon.cycle().intake.stored
        self.per_order.append(time.perf_counter() - began)
        if stored != 1:
            raise RuntimeError(f"the order from {address} was not taken in")


def open_case(url: str, maildir: Path, total_games: int, waves_timed: int) -> Case:
    settings = Settings(database_url=url, address=MODERATOR, maildir=str(maildir))
    daemon = Daemon(settings)
    games = start_games(daemon.engine, settings, REAL_GAMES, first_number=1)
    if total_games > REAL_GAMES:
        copy_game(daemon.engine, "bt-1", REAL_GAMES + 1, total_games)
    daemon.cycle()  # the welcome status mail, not timed
    orders = waves(games, PLAYERS * REAL_GAMES * (waves_timed + 1))
    return Case(total_games, settings, daemon, maildir, orders, [])


def measure(cases: list[Case], waves_timed: int) -> list[Figures]:
    """The cases' orders taken in turn, one of each at a time: a change in the machine's speed
    during the run (another tenant's load) falls on every case alike. Then one more wave each,
    for `pbem run --once` and its peak memory."""
    for wave in range(waves_timed):
        for index in range(len(cases[0].orders[wave])):
            for case in cases:
                case.take(case.orders[wave][index])
    figures = []
    for case in cases:
        for address in case.orders[waves_timed]:
            deliver(case.maildir, order_for(case.daemon.engine, address))
        case.daemon.close()
        figures.append(Figures(case.games, case.per_order, peak_rss_of_one_cycle(case.settings)))
    return figures


@contextmanager
def database(backend: str, folder: Path) -> Iterator[str]:
    if backend == "postgresql":
        with postgres_database() as url:
            yield url
    else:
        yield f"sqlite:///{folder / 'pbem.sqlite3'}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="1,000 games and one timed wave")
    args = parser.parse_args()
    large, waves_timed = (1000, 1) if args.quick else (10_000, 2)
    print(
        f"benchmark 3, scale: time per order (one Daemon.cycle over the local Maildir), "
        f"{waves_timed * PLAYERS * REAL_GAMES} orders each, the two cases in turn"
    )
    for backend in ("sqlite", "postgresql"):
        with ExitStack() as stack:
            cases = []
            for total in (REAL_GAMES, large):
                folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
                url = stack.enter_context(database(backend, folder))
                began = time.perf_counter()
                cases.append(open_case(url, folder / "mail", total, waves_timed))
                print(
                    f"  {backend:10} {total:6} games: seeded in {time.perf_counter() - began:.0f} s"
                )
            small, big = measure(cases, waves_timed)
        for figures in (small, big):
            cuts = statistics.quantiles(figures.per_order, n=20)
            print(
                f"  {backend:10} {figures.games:6} games: median {figures.median_ms:6.1f} ms, "
                f"mean {statistics.mean(figures.per_order) * 1000:6.1f} ms, "
                f"95th {cuts[18] * 1000:6.1f} ms; `pbem run --once` peak RSS "
                f"{figures.peak_rss_mb:.0f} MB"
            )
        growth = big.median_ms / small.median_ms - 1
        print(
            f"  {backend}: {growth:+.0%} from {small.games} to {big.games} games "
            f"(target within 20%: {'met' if abs(growth) <= 0.2 else 'MISSED'}); peak RSS "
            f"{big.peak_rss_mb:.0f} MB (target < 150 MB: "
            f"{'met' if big.peak_rss_mb < 150 else 'MISSED'})"
        )


if __name__ == "__main__":
    main()
