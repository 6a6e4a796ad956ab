"""How much mail the provider lets the moderator send: per minute and per day.

`PBEM_SEND_LIMITS` names a preset (`gmail`, `google-workspace`, `microsoft365`, `unlimited`) or
gives the two numbers as `PER_MINUTE/PER_DAY` (0: no limit). The presets stay a little under the
providers' published limits. Without the setting, the preset follows from the SMTP server's
host (smtp.gmail.com: `gmail`, smtp.office365.com: `microsoft365`); any other server, likely the
GM's own, is `unlimited`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SendLimits:
    """At most `per_minute` emails in any minute and `per_day` in any 24 hours (0: no limit)."""

    per_minute: int
    per_day: int

    def room(self, sent_last_minute: int, sent_last_day: int) -> int | None:
        """How many more may go now; None when there is no limit at all."""
        rooms = [
            limit - sent
            for limit, sent in ((self.per_minute, sent_last_minute), (self.per_day, sent_last_day))
            if limit
        ]
        return max(0, min(rooms)) if rooms else None

    def __str__(self) -> str:
        return f"{self.per_minute or 'unlimited'}/min, {self.per_day or 'unlimited'}/day"


PRESETS = {
    "gmail": SendLimits(per_minute=20, per_day=450),  # a personal account: 500 a day
    "google-workspace": SendLimits(per_minute=30, per_day=1800),  # 2,000 a day
    "microsoft365": SendLimits(per_minute=30, per_day=9000),  # 30 a minute, 10,000 a day
    "unlimited": SendLimits(per_minute=0, per_day=0),  # your own server
}
PRESET_BY_SMTP_HOST = {
    "smtp.gmail.com": "gmail",
    "smtp.googlemail.com": "gmail",
    "smtp.office365.com": "microsoft365",
}
DEFAULT_GIVE_UP_HOURS = 72.0


class SendLimitsError(ValueError):
    """A send limit setting that cannot be used as written; the message says why."""


def parse_send_limits(text: str) -> SendLimits:
    """A preset's name or `PER_MINUTE/PER_DAY`, e.g. `microsoft365` or `30/2000`."""
    word = text.strip().lower()
    if word in PRESETS:
        return PRESETS[word]
    minute, slash, day = word.partition("/")
    if slash and minute.strip().isdigit() and day.strip().isdigit():
        return SendLimits(per_minute=int(minute), per_day=int(day))
    raise SendLimitsError(
        f"PBEM_SEND_LIMITS {text!r}: write one of {', '.join(PRESETS)} or PER_MINUTE/PER_DAY "
        "such as 30/2000 (0 for no limit)"
    )


def limits_for_host(host: str) -> SendLimits:
    """The preset of a known provider's SMTP server, else no limit."""
    return PRESETS[PRESET_BY_SMTP_HOST.get(host.lower().rstrip("."), "unlimited")]


def parse_give_up_hours(text: str) -> float:
    """Hours a deferred email may wait before it is given up and reported."""
    try:
        hours = float(text)
    except ValueError:
        hours = 0.0
    if not hours > 0:
        raise SendLimitsError(f"PBEM_GIVE_UP_HOURS {text!r}: write a number of hours above 0")
    return hours
