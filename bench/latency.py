"""Benchmark 2: from an order landing in the inbox to its reply reaching the SMTP server.

    python -m bench.latency [--quick]

`pbem run` (IMAP IDLE in, SMTP out) runs in a subprocess over 5 Big Time! games; 50 orders are
APPENDed one at a time, each answering its sender's latest status email, and each waits for its
reply (the SMTP server timestamps what it accepts). Target: median under 1 s.

For comparison it also measures the floor Dovecot sets: an IMAPClient in IDLE on another user's
INBOX, from an APPEND there to the server's `EXISTS`.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from imapclient import IMAPClient

from bench.players import start_games, wave_emails, waves
from bench.servers import MailServers, append_all, imap_client, mail_servers, pbem_environment
from pbem.store import open_database

REPLY_TIMEOUT = 30.0
STOP_TIMEOUT = 15.0


def replies_to(servers: MailServers, address: str) -> list[float]:
    """When each auto-reply to `address` was accepted by the SMTP server."""
    return [
        arrival.at
        for arrival in servers.arrivals()
        if address in arrival.recipients and arrival.auto_submitted == "auto-replied"
    ]


def wait_for_reply(servers: MailServers, address: str, earlier: int) -> float:
    deadline = time.monotonic() + REPLY_TIMEOUT
    while time.monotonic() < deadline:
        replies = replies_to(servers, address)
        if len(replies) > earlier:
            return replies[earlier]
        time.sleep(0.002)
    raise TimeoutError(f"no reply to {address} within {REPLY_TIMEOUT} s")


def idle_floor(servers: MailServers, samples: int) -> list[float]:
    """Seconds from an APPEND to alice's INBOX until an IDLE client there hears `EXISTS`."""
    dovecot = servers.dovecot
    watcher = IMAPClient(dovecot.host, dovecot.port, ssl=False)
    watcher.login("alice", dovecot.users["alice"])
    watcher.select_folder("INBOX")
    delays = []
    try:
        with imap_client(dovecot, "alice") as client:
            for _ in range(samples):
                watcher.idle()
                append_all(client, [b"Subject: ping\r\n\r\nping\r\n"])
                landed = time.monotonic()
                while not any(r[1:2] == (b"EXISTS",) for r in watcher.idle_check(REPLY_TIMEOUT)):
                    pass
                delays.append(time.monotonic() - landed)
                watcher.idle_done()
    finally:
        watcher.logout()
    return delays


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="2 games, 12 orders")
    args = parser.parse_args()
    games_count, orders = (2, 12) if args.quick else (5, 50)
    latencies: list[float] = []
    with tempfile.TemporaryDirectory() as folder, mail_servers() as servers:
        floor = idle_floor(servers, 5)
        settings = servers.settings(f"sqlite:///{Path(folder) / 'pbem.sqlite3'}")
        engine = open_database(settings.database_url)
        games = start_games(engine, settings, games_count)
        engine.dispose()
        daemon = subprocess.Popen(
            ["pbem", "run"], env=pbem_environment(settings), stderr=subprocess.DEVNULL
        )
        try:
            servers.smtp.wait_for(3 * games_count, timeout=REPLY_TIMEOUT)
            with imap_client(servers.dovecot) as client:
                for wave in waves(games, orders):
                    for address in wave:
                        earlier = len(replies_to(servers, address))
                        [email] = wave_emails([address], servers.received())
                        append_all(client, [email])
                        landed = time.monotonic()
                        latencies.append(wait_for_reply(servers, address, earlier) - landed)
        finally:
            daemon.terminate()
            daemon.wait(STOP_TIMEOUT)

    cuts = statistics.quantiles(latencies, n=20)
    median = statistics.median(latencies)
    print(
        f"benchmark 2, latency with IDLE: {len(latencies)} orders one at a time, "
        f"{games_count} games, `pbem run` on SQLite"
    )
    print(
        f"  median {median * 1000:.0f} ms, 95th percentile {cuts[18] * 1000:.0f} ms, "
        f"min {min(latencies) * 1000:.0f} ms, max {max(latencies) * 1000:.0f} ms"
    )
    print(
        f"  Dovecot's IDLE floor (APPEND to EXISTS, bare IMAPClient): median "
        f"{statistics.median(floor) * 1000:.0f} ms over {len(floor)}"
    )
    print(f"  target median < 1 s: {'met' if median < 1 else 'MISSED'}")


if __name__ == "__main__":
    main()
