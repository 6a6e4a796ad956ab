"""Where a benchmark's time goes, without a profiler's overhead: wall time per pbem stage.

    python -m bench.stages bench.throughput [ARGS...]

Wraps a few of pbem's functions with timers, runs the benchmark module as `python -m` would,
then prints the total seconds and calls of each stage. Stages nest (handling an email includes
rendering its reply), and the totals include untimed set-up such as the welcome mail.
"""

from __future__ import annotations

import runpy
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from email.message import Message
from functools import wraps
from typing import Any

from sqlalchemy.engine.default import DefaultDialect

import pbem.daemon.loop
import pbem.moderator.letters
import pbem.moderator.postman
from pbem.daemon import Daemon
from pbem.mail.imap_session import ImapSession
from pbem.mail.smtp import SmtpSender
from pbem.moderator import inbound

seconds: dict[str, float] = defaultdict(float)
calls: Counter[str] = Counter()

STAGES: list[tuple[Any, str, str]] = [
    (Daemon, "_store", "handle one email, in its transaction"),
    (pbem.daemon.loop, "handle_inbound", "  handle_inbound"),
    (inbound, "carry_out", "    check and apply the orders (engine)"),
    (inbound, "follow_up", "    follow up (resolution, status letters)"),
    (pbem.moderator.letters, "render", "    render letters (Jinja, text + HTML)"),
    (pbem.moderator.postman, "compose", "    compose the emails (bytes)"),
    (Message, "as_bytes", "    serialise MIME messages (as_bytes)"),
    (DefaultDialect, "do_commit", "database commits (all)"),
    (Daemon, "send_outbox", "send the outbox"),
    (SmtpSender, "send", "  SMTP send"),
    (ImapSession, "fetch_raw", "IMAP fetch"),
    (ImapSession, "acknowledge", "IMAP acknowledge (STORE + MOVE)"),
]


def timed(function: Callable[..., Any], label: str) -> Callable[..., Any]:
    @wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        began = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            seconds[label] += time.process_time() - began
            calls[label] += 1

    return wrapper


def main() -> None:
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    module = sys.argv[1]
    for owner, name, label in STAGES:
        setattr(owner, name, timed(getattr(owner, name), label))
    sys.argv = [module, *sys.argv[2:]]
    try:
        runpy.run_module(module, run_name="__main__", alter_sys=True)
    finally:
        print("stage                                        seconds    calls")
        for _, _, label in STAGES:
            print(f"{label:42} {seconds[label]:9.2f} {calls[label]:8}")


if __name__ == "__main__":
    main()
