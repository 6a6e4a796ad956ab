"""Benchmark 1: order emails per second through Dovecot, pbem and SMTP, against a bare loop.

    python -m bench.throughput [--quick] [--database sqlite|postgresql] [--profile FILE]

50 Big Time! games of 3 players get 500 order emails, APPENDed to the moderator's Dovecot INBOX
in waves (every seat answers its latest status email; the next wave answers the statuses the last
one caused). pbem's time is `Daemon.cycle()` until every email is handled and the outbox is
empty, summed over the waves (APPENDing is not counted). The bare loop then fetches the same
messages (from pbem/processed) one by one with imaplib and sends one reply each with smtplib.

Targets: the bare loop's time / pbem's time >= 0.5; >= 100 orders/s with every reply and status
mail sent.
"""

from __future__ import annotations

import argparse
import cProfile
import imaplib
import smtplib
import tempfile
import time
from contextlib import ExitStack
from email import policy
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from pathlib import Path

from bench.ledger import inbound_statuses, outbox_with_status
from bench.players import start_games, wave_emails, waves
from bench.servers import (
    MODERATOR,
    PROCESSED_FOLDER,
    MailServers,
    append_all,
    imap_client,
    mail_servers,
    postgres_database,
)
from pbem.daemon import Daemon

MAX_CYCLES = 50


def drain(daemon: Daemon, emails: int) -> int:
    """Cycles until `emails` more emails were taken in and nothing waits in the outbox."""
    stored = 0
    for cycles in range(1, MAX_CYCLES + 1):
        stored += daemon.cycle().intake.stored
        if stored >= emails and outbox_with_status(daemon.engine) == 0:
            return cycles
    raise RuntimeError(f"after {MAX_CYCLES} cycles: {stored}/{emails} emails taken in")


def bare_loop(servers: MailServers) -> tuple[int, float]:
    """(messages, seconds) to fetch every message in pbem/processed and answer each."""
    dovecot = servers.dovecot
    client = imaplib.IMAP4(dovecot.host, dovecot.port)
    client.login("moderator", dovecot.users["moderator"])
    client.select(PROCESSED_FOLDER, readonly=True)
    smtp = smtplib.SMTP(servers.smtp.host, servers.smtp.port)
    parser = BytesHeaderParser(policy=policy.default)
    try:
        began = time.perf_counter()
        _, found = client.uid("SEARCH", "ALL")
        uids = found[0].split()
        for uid in uids:
            _, parts = client.uid("FETCH", uid, "(BODY.PEEK[])")
            headers = parser.parsebytes(parts[0][1])
            reply = EmailMessage()
            reply["From"] = MODERATOR
            reply["To"] = headers["From"]
            reply["Subject"] = f"Re: {headers['Subject']}"
            reply["In-Reply-To"] = headers["Message-ID"]
            reply.set_content("Received.\n")
            smtp.send_message(reply)
        return len(uids), time.perf_counter() - began
    finally:
        smtp.quit()
        client.logout()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="10 games, 100 orders")
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--profile", type=Path, help="write cProfile stats of pbem's part here")
    args = parser.parse_args()
    profiler = cProfile.Profile()
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
        games = start_games(daemon.engine, daemon.settings, games_count)
        drain(daemon, 0)  # the welcome status mail, not timed
        welcome = len(servers.smtp.received())
        seconds = 0.0
        with imap_client(servers.dovecot) as client:
            for wave in waves(games, orders):
                append_all(client, wave_emails(wave, servers.received()))
                began = time.perf_counter()
                if args.profile:
                    profiler.runcall(drain, daemon, len(wave))
                else:
                    drain(daemon, len(wave))
                seconds += time.perf_counter() - began
        statuses = inbound_statuses(daemon.engine)
        sent = len(servers.smtp.received()) - welcome
        fetched, bare_seconds = bare_loop(servers)
    if args.profile:
        profiler.dump_stats(args.profile)

    print(f"benchmark 1, throughput ({args.database}): {orders} orders, {games_count} games")
    print(f"  inbound rows by status: {dict(statuses)}")
    print(
        f"  pbem: {seconds:.2f} s, {orders / seconds:.1f} orders/s, {sent} emails sent "
        f"(replies and status mail)"
    )
    print(
        f"  bare loop: {fetched} fetched and answered in {bare_seconds:.2f} s, "
        f"{fetched / bare_seconds:.1f} messages/s"
    )
    ratio = bare_seconds / seconds
    print(f"  bare / pbem: {ratio:.2f} (target >= 0.5: {'met' if ratio >= 0.5 else 'MISSED'})")
    rate = orders / seconds
    print(f"  orders/s: {rate:.1f} (target >= 100: {'met' if rate >= 100 else 'MISSED'})")
    if statuses.get("accepted", 0) != orders:
        raise SystemExit(f"expected {orders} accepted orders, got {dict(statuses)}")


if __name__ == "__main__":
    main()
