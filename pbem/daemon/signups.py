"""Games open for sign-up whose start date has come: each daemon cycle starts them (or tells the
game master they are short of players), one transaction each."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime

from sqlalchemy import Engine

from pbem.moderator.desk import Desk
from pbem.moderator.signup_start import start_due
from pbem.settings import Settings
from pbem.store import session_scope, signups_due

log = logging.getLogger("pbem.daemon")


def run_signup_starts(engine: Engine, settings: Settings, clock: Callable[[], datetime]) -> int:
    """Start every open game whose start date has passed; how many started."""
    with session_scope(engine) as session:
        due = [row.id for row in signups_due(session, clock())]
    started = 0
    for signup_id in due:
        with session_scope(engine) as session:
            if start_due(Desk(session, settings, clock), signup_id):
                log.info("sign-up %s: the start date came; the game started", signup_id)
                started += 1
    return started
