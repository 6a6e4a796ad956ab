"""The daemon's alarm clock: APScheduler jobs, kept in the database, that wake the daemon at each
game's reminder time and deadline, and at the start date of each game open for sign-up.

What happens at a deadline is decided by `pbem.daemon.deadlines` from the games table
(`deadline_at`), which every cycle reads; the alarms only make the daemon look at the right moment
instead of at the end of its wait for mail. They live in APScheduler's SQLAlchemy job store in the
same database, so a daemon restarted after a deadline passed rings the missed alarm at once.
APScheduler's job stores cannot be shared between schedulers, so each daemon on one database needs
its own name (`pbem run --name`), which names its jobs table.
"""

from __future__ import annotations

import re
import threading
from datetime import UTC, datetime, timedelta

from apscheduler.jobstores.sqlalchemy import SQLAlchemyJobStore
from apscheduler.schedulers.background import BackgroundScheduler
from sqlalchemy import Engine
from sqlmodel import Session, col, select

from pbem.store import GameRow, SignupRow

# The reminder comes when a quarter of the time is left, at most this long before the deadline.
MAX_REMINDER_LEAD = timedelta(hours=24)
_BELLS: dict[str, threading.Event] = {}


def reminder_time(deadline: datetime, hours: float) -> datetime:
    return deadline - min(timedelta(hours=hours) / 4, MAX_REMINDER_LEAD)


def ring(bell: str) -> None:
    """An alarm's job: wake the daemon that owns `bell` (it runs in the scheduler's thread)."""
    event = _BELLS.get(bell)
    if event is not None:
        event.set()


def check_daemon_name(name: str) -> None:
    """A daemon's name names its jobs table, so it must be a safe table-name part."""
    if not re.fullmatch(r"[a-z0-9_]{1,40}", name):
        raise ValueError(f"daemon name {name!r}: use 1-40 lowercase letters, digits or _")


def alarm_store(engine: Engine, name: str) -> SQLAlchemyJobStore:
    """The job store of the daemon called `name`: APScheduler's table apscheduler_<name>."""
    check_daemon_name(name)
    return SQLAlchemyJobStore(engine=engine, tablename=f"apscheduler_{name}")


def create_alarm_table(engine: Engine, name: str) -> None:
    """Create the daemon's job table if missing (`pbem db upgrade`; the scheduler would too)."""
    alarm_store(engine, name).jobs_t.create(engine, checkfirst=True)


class AlarmClock:
    def __init__(self, engine: Engine, name: str, bell: threading.Event) -> None:
        store = alarm_store(engine, name)
        self.engine = engine
        self.name = name
        _BELLS[name] = bell
        self.scheduler = BackgroundScheduler(
            jobstores={"default": store},
            job_defaults={"coalesce": True, "misfire_grace_time": None},
            timezone=UTC,
        )
        self._synced_until: datetime | None = None

    def start(self) -> None:
        self.scheduler.start()
        self.sync()

    def stop(self) -> None:
        if self.scheduler.running:
            self.scheduler.shutdown(wait=False)
        _BELLS.pop(self.name, None)

    def sync(self) -> int:
        """Set the alarms of every game changed since the last sync; how many games."""
        # Only the columns the alarms need: a game's state can be large and there may be many.
        statement = select(GameRow.id, GameRow.deadline_at, GameRow.deadline_hours).where(
            col(GameRow.status) == "running"
        )
        if self._synced_until is None:  # at start only games with a deadline have alarms
            statement = statement.where(col(GameRow.deadline_at).is_not(None))
        else:
            statement = statement.where(col(GameRow.updated_at) >= self._synced_until)
        self._synced_until = datetime.now(UTC)
        with Session(self.engine) as session:
            games = session.exec(statement).all()
            starts = session.exec(
                select(SignupRow.id, SignupRow.start_at)
                .where(col(SignupRow.status) == "open")
                .where(col(SignupRow.start_at) > self._synced_until)
            ).all()
        for game_id, deadline_at, hours in games:
            self._set(game_id, deadline_at, hours)
        for signup_id, start_at in starts:
            # Only dates to come: a sign-up that stays open past its date (too few players)
            # is looked at by every cycle anyway, and must not ring again and again.
            if start_at is not None and self.scheduler.get_job(f"start:{signup_id}") is None:
                self._ring_at(f"start:{signup_id}", start_at)
        return len(games)

    def alarms(self) -> dict[str, datetime]:
        """The alarms set, by job id, for tests and `pbem run -v`."""
        return {job.id: job.next_run_time for job in self.scheduler.get_jobs()}

    def _set(self, game_id: str, deadline_at: datetime | None, hours: float | None) -> None:
        for kind in ("deadline", "reminder"):
            job_id = f"{kind}:{game_id}"
            if self.scheduler.get_job(job_id) is not None:
                self.scheduler.remove_job(job_id)
        if deadline_at is None or not hours:
            return
        moments = {"deadline": deadline_at, "reminder": reminder_time(deadline_at, hours)}
        for kind, moment in moments.items():
            self._ring_at(f"{kind}:{game_id}", moment)

    def _ring_at(self, job_id: str, moment: datetime) -> None:
        self.scheduler.add_job(
            "pbem.daemon.alarms:ring",
            "date",
            run_date=moment,
            id=job_id,
            args=[self.name],
            replace_existing=True,
        )
