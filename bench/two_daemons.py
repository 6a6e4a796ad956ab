"""Benchmark 4: two daemons on one PostgreSQL database and one IMAP inbox.

    python -m bench.two_daemons [--quick] [--daemons 1 2]

For each count of daemons (by default 1, then 2, each on fresh servers and a fresh database):
`pbem run` processes in subprocesses over one Dovecot INBOX, one aiosmtpd server and one
PostgreSQL database; 50 Big Time! games get 500 orders in waves, APPENDed while the daemons run.
A wave's time runs from its first APPEND until every email is handled, the outbox is empty and
the SMTP server has every email the outbox marked sent.

Then nothing may have been handled twice: no message key with two inbound rows, no inbound email
with two history entries, no Message-ID received twice by the SMTP server; and every order is
accepted with exactly one history entry.
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from sqlalchemy import Engine

from bench.ledger import handled_twice, inbound_statuses, orders_with_history, outbox_with_status
from bench.players import start_games, wave_emails, waves
from bench.servers import (
    MailServers,
    append_all,
    imap_client,
    mail_servers,
    pbem_environment,
    postgres_database,
)
from pbem.store import open_database

WAVE_TIMEOUT = 300.0
STOP_TIMEOUT = 15.0


def wait_until(done: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAVE_TIMEOUT
    while not done():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what} not done within {WAVE_TIMEOUT} s")
        time.sleep(0.01)


def settled(engine: Engine, servers: MailServers, emails: int) -> bool:
    """`emails` inbound emails handled, nothing left to send, and the SMTP server has it all."""
    statuses = inbound_statuses(engine)
    handled = sum(statuses.values()) - statuses.get("new", 0)
    return (
        handled >= emails
        and outbox_with_status(engine, "pending") == 0
        and len(servers.smtp.received()) >= outbox_with_status(engine, "sent")
    )


def run(daemons: int, games_count: int, orders: int, logs: Path) -> None:
    with mail_servers() as servers, postgres_database() as url:
        settings = servers.settings(url)
        engine = open_database(url)
        games = start_games(engine, settings, games_count)
        log_files = [(logs / f"daemon-{daemons}-{n}.log").open("wb") for n in range(daemons)]
        processes = [
            subprocess.Popen(["pbem", "run"], env=pbem_environment(settings), stderr=log)
            for log in log_files
        ]
        seconds = 0.0
        try:
            wait_until(partial(settled, engine, servers, 0), "the welcome mail")
            appended = 0
            with imap_client(servers.dovecot) as client:
                for wave in waves(games, orders):
                    emails = wave_emails(wave, servers.received())
                    began = time.perf_counter()
                    appended += append_all(client, emails)
                    wait_until(partial(settled, engine, servers, appended), f"{appended} orders")
                    seconds += time.perf_counter() - began
        finally:
            for process in processes:
                process.terminate()
            for process in processes:
                process.wait(STOP_TIMEOUT)
            for log in log_files:
                log.close()
        statuses = inbound_statuses(engine)
        twice = handled_twice(engine, servers.received())
        with_history = orders_with_history(engine)
        engine.dispose()

    logged = [line for log in log_files for line in Path(log.name).read_text().splitlines()]
    troubles = [line for line in logged if " WARNING " in line or " ERROR " in line]
    print(
        f"  {daemons} daemon(s): {orders} orders in {seconds:.2f} s, "
        f"{orders / seconds:.1f} orders/s; inbound rows {dict(statuses)}; "
        f"accepted orders with a history entry: {with_history}"
    )
    print(f"    handled twice: {twice}; warnings and errors logged: {len(troubles)}")
    for line in troubles[:5]:
        print(f"      {line[:160]}")
    if any(twice.values()) or statuses.get("accepted", 0) != orders or with_history != orders:
        raise SystemExit("FAILED: an order was lost or handled twice")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="10 games, 100 orders")
    parser.add_argument("--daemons", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()
    games_count, orders = (10, 100) if args.quick else (50, 500)
    print(
        f"benchmark 4, daemons sharing one PostgreSQL database and one inbox: "
        f"{orders} orders, {games_count} games"
    )
    with tempfile.TemporaryDirectory() as folder:
        for daemons in args.daemons:
            run(daemons, games_count, orders, Path(folder))


if __name__ == "__main__":
    main()
