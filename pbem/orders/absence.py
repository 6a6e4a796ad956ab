"""AWAY <date> or AWAY <n> days: when an absence ends, read as written.

The reader knows no calendar of its own: `12 Dec` keeps no year, and the moderator settles it
against its clock (the next 12 Dec), so reading an email gives the same orders on any day.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from pbem.orders.words import Problem, Words

# No absence is longer than a year, whatever a game's cap: longer is a typo.
LONGEST_AWAY_DAYS = 366
_MONTHS = (
    "january", "february", "march", "april", "may", "june",
    "july", "august", "september", "october", "november", "december",
)  # fmt: skip
_ISO = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})$")
# `5 days`, `for 5 days`, `2 weeks`: how people write a length of time.
_DAYS = re.compile(r"^(?:for\s+)?(\d{1,3})\s*(days?|weeks?)$")
_DAY_MONTH = re.compile(r"^(\d{1,2})(?:st|nd|rd|th)?\.?\s+([a-z]+)\.?(?:\s+(\d{4}))?$")
_MONTH_DAY = re.compile(r"^([a-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?(?:\s+(\d{4}))?$")
_UNTIL = re.compile(r"^(?:until|till|til)\s+")
FORMS = ("AWAY <date>", "AWAY <n> days")
EXAMPLES = ("AWAY 12 Dec", "AWAY 2026-12-12", "AWAY 5 days")


@dataclass(frozen=True)
class Away:
    """AWAY: the player is away for `days` days, or until `day` `month` (`year` if written)."""

    days: int | None = None
    day: int = 0
    month: int = 0
    year: int | None = None

    def until(self, today: date) -> date:
        """The day the player is back: `days` after today, or the date (the next such day on or
        after today when no year is written)."""
        if self.days is not None:
            return today + timedelta(days=self.days)
        if self.year is not None:
            return date(self.year, self.month, self.day)
        for year in range(today.year, today.year + 5):  # 29 Feb: up to the next leap year
            try:
                back = date(year, self.month, self.day)
            except ValueError:
                continue
            if back >= today:
                return back
        raise AssertionError(f"no {self.day}/{self.month} after {today}")  # checked when read


def read_away(words: Words) -> Sequence[Away] | Problem:
    text = _UNTIL.sub("", " ".join(words.rest.replace(",", " ").split()).lower())
    if not text:
        return Problem("write when you are back: e.g. AWAY 12 Dec, AWAY 2026-12-12 or AWAY 5 days")
    away = _read(text)
    if away is None:
        return Problem(
            f"{words.rest.strip()!r} is not a date or a number of days: "
            "write e.g. AWAY 12 Dec, AWAY 2026-12-12 or AWAY 5 days"
        )
    if isinstance(away, Problem):
        return away
    return [away]


def _read(text: str) -> Away | Problem | None:
    if match := _DAYS.match(text):
        days = int(match[1]) * (7 if match[2].startswith("week") else 1)
        if not 1 <= days <= LONGEST_AWAY_DAYS:
            return Problem(f"{days} days: an absence is 1 to {LONGEST_AWAY_DAYS} days")
        return Away(days=days)
    if match := _ISO.match(text):
        return _dated(int(match[3]), int(match[2]), int(match[1]))
    if match := _DAY_MONTH.match(text):
        month = _month(match[2])
        return _dated(int(match[1]), month, _year(match[3])) if month else None
    if match := _MONTH_DAY.match(text):
        month = _month(match[1])
        return _dated(int(match[2]), month, _year(match[3])) if month else None
    return None


def _month(word: str) -> int:
    """1 to 12 for a month's name or its first three letters or more (`Dec`, `Sept`); else 0."""
    if len(word) < 3:
        return 0
    return next((n for n, name in enumerate(_MONTHS, start=1) if name.startswith(word)), 0)


def _year(word: str | None) -> int | None:
    return int(word) if word else None


def _dated(day: int, month: int, year: int | None) -> Away | Problem:
    try:
        date(year or 2000, month, day)  # 2000: a leap year, so 29 Feb is a date
    except ValueError:
        return Problem(f"day {day} of month {month} is not a date")
    return Away(day=day, month=month, year=year)
