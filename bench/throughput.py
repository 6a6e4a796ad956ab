"""Benchmark 1: order emails per second through Dovecot, pbem and SMTP, against a bare loop.

    python -m bench.throughput [--quick] [--database sqlite|postgresql] [--profile FILE]
                               [--statements] [--in-process]

50 Big Time! games of 3 players get 500 order emails, APPENDed to the moderator's Dovecot INBOX
in waves (every seat answers its latest status email; the next wave answers the statuses the last
one caused). pbem runs as `pbem run` does over SMTP: its cycles take in the mail while its
sending process sends the outbox (pbem/daemon/sending.py); `--in-process` sends from the cycle
instead, as `pbem run --once` does. pbem's time is from a wave's first cycle until every email
is handled and the outbox is empty, summed over the waves (APPENDing is not counted). Then two
floors (bench/floors.py) fetch the same messages (from pbem/processed) one by one with imaplib:
the bare loop sends a short reply to each, the fair floor sends exactly the emails pbem sent,
over one SMTP connection. Each is timed on the clock and in processor time (pbem's with its
sending process's). The SMTP server (aiosmtpd) runs in a process of its own, as a real one
does (bench/smtp_process.py). pbem's database statements and commits are counted per order
(`--statements` lists the most frequent ones; the sending process's are not counted): unlike
times, they do not depend on the machine's load.

Targets: the fair floor's time / pbem's time >= 0.5; >= 100 orders/s on SQLite and >= 60 on
PostgreSQL, with every reply and status mail sent.
"""

from __future__ import annotations

import argparse
import cProfile
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

from bench.floors import ProcessorTime, Stopwatch, Timing, bare_loop, fair_floor
from bench.ledger import inbound_statuses, outbox_with_status
from bench.machine import reference_ms
from bench.players import start_games, wave_emails, waves
from bench.servers import append_all, imap_client, mail_servers, postgres_database
from bench.statements import StatementCount
from pbem.daemon import Daemon

MAX_CYCLES = 50
SEND_TIMEOUT = 30.0

ORDERS_PER_SECOND = {"sqlite": 100, "postgresql": 60}  # issue 14's targets, by database


def drain(daemon: Daemon, emails: int, count: StatementCount | None = None) -> int:
    """Cycles until `emails` more emails were taken in and nothing waits in the outbox; only
    the daemon's own statements are counted, not the look at the outbox."""
    stored = 0
    for cycles in range(1, MAX_CYCLES + 1):
        if count is not None:
            count.counting = True
        stored += daemon.cycle().intake.stored
        if count is not None:
            count.counting = False
        if stored >= emails and sent_all(daemon):
            return cycles
    raise RuntimeError(f"after {MAX_CYCLES} cycles: {stored}/{emails} emails taken in")


def sent_all(daemon: Daemon) -> bool:
    """Nothing waits in the outbox: at once when the cycle sends it, else once the sending
    process's passes have sent it all (the cycle has just rung it)."""
    while outbox_with_status(daemon.engine) != 0:
        if daemon.sending is None or daemon.sending.next_report(SEND_TIMEOUT) is None:
            return False
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="10 games, 100 orders")
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--profile", type=Path, help="write cProfile stats of pbem's part here")
    parser.add_argument("--statements", action="store_true", help="list the frequent statements")
    parser.add_argument(
        "--in-process", action="store_true", help="send in pbem's own process, as `run --once`"
    )
    args = parser.parse_args()
    profiler = cProfile.Profile(time.process_time)  # CPU time: the machine may be busy
    games_count, orders = (10, 100) if args.quick else (50, 500)
    with ExitStack() as stack:
        servers = stack.enter_context(mail_servers())
        if args.database == "postgresql":
            url = stack.enter_context(postgres_database())
        else:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
            url = f"sqlite:///{folder / 'pbem.sqlite3'}"
        daemon = Daemon(servers.settings(url))
        stack.callback(daemon.close)
        if not args.in_process:
            daemon.start_sending_process()  # as `pbem run` sends over SMTP
        games = start_games(daemon.engine, daemon.settings, games_count)
        drain(daemon, 0)  # the welcome status mail, not timed
        count = StatementCount(daemon.engine)
        sending_cpu = ProcessorTime(daemon.sending.pid if daemon.sending else None)
        welcome = len(servers.smtp.received())
        watch = Stopwatch()
        reference_before = reference_ms()
        with imap_client(servers.dovecot) as client:
            for wave in waves(games, orders):
                append_all(client, wave_emails(wave, servers.received()))
                with watch.timed(), sending_cpu.timed():
                    if args.profile:
                        profiler.runcall(drain, daemon, len(wave), count)
                    else:
                        drain(daemon, len(wave), count)
        reference_after = reference_ms()
        statuses = inbound_statuses(daemon.engine)
        sent = servers.smtp.received()[welcome:]
        bare = bare_loop(servers)
        fair = fair_floor(servers, sent)
    if args.profile:
        profiler.dump_stats(args.profile)

    pbem = watch.timing(orders, sending_cpu.seconds)
    print(f"benchmark 1, throughput ({args.database}): {orders} orders, {games_count} games")
    print(
        f"  machine: reference workload {reference_before:.1f} ms before pbem's run, "
        f"{reference_after:.1f} ms after (python -m bench.machine)"
    )
    print(f"  inbound rows by status: {dict(statuses)}")
    print(f"  pbem: {_figures(pbem)}, {len(sent)} emails sent (replies and status mail)")
    if sending_cpu.pid is not None:
        print(f"  of which its sending process: processor time {sending_cpu.seconds:.2f} s")
    print(f"  pbem's database work per order: {count.per_order(orders)}")
    if args.statements:
        print("  most frequent statements, per order:")
        print("\n".join(f"    {line}" for line in count.top(orders)))
    print(f"  bare loop: {_figures(bare)}, one short reply each")
    print(f"  fair floor: {_figures(fair)}, sending the {len(sent)} emails pbem sent")
    print(f"  bare / pbem: {_ratios(bare, pbem)}")
    fair_ratio = fair.seconds / pbem.seconds
    verdict = "met" if fair_ratio >= 0.5 else "MISSED"
    print(f"  fair floor / pbem: {_ratios(fair, pbem)} (target >= 0.5: {verdict})")
    rate, target = orders / pbem.seconds, ORDERS_PER_SECOND[args.database]
    print(f"  orders/s: {rate:.1f} (target >= {target}: {'met' if rate >= target else 'MISSED'})")
    if statuses.get("accepted", 0) != orders:
        raise SystemExit(f"expected {orders} accepted orders, got {dict(statuses)}")


def _figures(timing: Timing) -> str:
    return (
        f"{timing.messages} in {timing.seconds:.2f} s ({timing.messages / timing.seconds:.1f}/s), "
        f"processor time {timing.cpu_seconds:.2f} s "
        f"({timing.messages / timing.cpu_seconds:.1f}/s)"
    )


def _ratios(floor: Timing, pbem: Timing) -> str:
    """The floor's time over pbem's: 1 would be pbem doing nothing but the mail."""
    cpu = floor.cpu_seconds / pbem.cpu_seconds
    return f"{floor.seconds / pbem.seconds:.2f}, in processor time {cpu:.2f}"


if __name__ == "__main__":
    main()
