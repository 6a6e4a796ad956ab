"""The mail daemon: the loop (`loop`), deadlines and reminders (`deadlines`), the outbox
(`outbox`) and the alarm clock that wakes it (`alarms`)."""

from pbem.daemon.loop import CycleReport, Daemon, mail_settings

__all__ = ["CycleReport", "Daemon", "mail_settings"]
