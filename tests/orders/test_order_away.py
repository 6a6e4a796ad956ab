"""AWAY <date>, AWAY <n> days and BACK, read in either game; a bad date is a polite refusal that
names the forms."""

from __future__ import annotations

from datetime import date

import pytest

from pbem.orders import Command, grammar_for, parse_orders
from pbem.orders.absence import Away

GAMES = ("showmanager", "bigtime")
DEC_12 = Away(day=12, month=12)


def _read(text: str, game: str = "showmanager") -> object:
    parsed = parse_orders(text, grammar_for(game))
    assert parsed.errors == (), [str(error) for error in parsed.errors]
    (line,) = parsed.orders
    return line.order


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    ("text", "away"),
    [
        ("AWAY 12 Dec", DEC_12),
        ("away 12 december", DEC_12),
        ("Away: Dec 12", DEC_12),
        ("AWAY 12th Dec.", DEC_12),
        ("AWAY until 12 Dec", DEC_12),
        ("AWAY till Dec. 12th", DEC_12),
        ("AWAY 2026-12-12", Away(day=12, month=12, year=2026)),
        ("AWAY 12 Dec 2026", Away(day=12, month=12, year=2026)),
        ("AWAY December 12, 2026", Away(day=12, month=12, year=2026)),
        ("AWAY 3 Sept", Away(day=3, month=9)),
        ("AWAY 29 Feb", Away(day=29, month=2)),
        ("AWAY 5 days", Away(days=5)),
        ("AWAY 1 day", Away(days=1)),
        ("away 14days", Away(days=14)),
        ("Away for 3 days", Away(days=3)),
        ("AWAY 2 weeks", Away(days=14)),
        ("away for 1 week", Away(days=7)),
    ],
)
def test_away_reads_a_date_or_a_number_of_days(game: str, text: str, away: Away) -> None:
    assert _read(text, game) == away


@pytest.mark.parametrize("text", ["BACK", "back", "Back again!", "BACK please"])
def test_back_may_be_followed_by_chatter(text: str) -> None:
    assert _read(text) == Command("BACK")


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("AWAY", "write when you are back"),
        ("AWAY soon", "'soon' is not a date or a number of days"),
        ("AWAY next week", "'next week' is not a date or a number of days"),
        ("AWAY 31 Feb", "day 31 of month 2 is not a date"),
        ("AWAY 2026-13-01", "day 1 of month 13 is not a date"),
        ("AWAY 12 Ja", "'12 Ja' is not a date"),  # too short to be a month
        ("AWAY 0 days", "an absence is 1 to 366 days"),
        ("AWAY 400 days", "an absence is 1 to 366 days"),
        ("AWAY 5 hours", "'5 hours' is not a date"),
    ],
)
def test_a_bad_away_is_refused_politely_naming_the_forms(text: str, why: str) -> None:
    parsed = parse_orders(text, grammar_for("showmanager"))
    (error,) = parsed.errors
    assert why in error.reason
    assert str(error).endswith("Accepted: AWAY <date> | AWAY <n> days")
    assert parsed.orders == ()


@pytest.mark.parametrize(
    ("away", "today", "back"),
    [
        (DEC_12, date(2026, 12, 1), date(2026, 12, 12)),
        (DEC_12, date(2026, 12, 12), date(2026, 12, 12)),  # today: refused by the moderator
        (Away(day=5, month=1), date(2026, 12, 20), date(2027, 1, 5)),  # the next 5 Jan
        (Away(day=29, month=2), date(2026, 3, 1), date(2028, 2, 29)),  # the next leap day
        (Away(day=12, month=12, year=2025), date(2026, 12, 1), date(2025, 12, 12)),
        (Away(days=5), date(2026, 12, 30), date(2027, 1, 4)),
    ],
)
def test_the_day_back_is_settled_against_today(away: Away, today: date, back: date) -> None:
    assert away.until(today) == back


def test_help_teaches_away_and_back() -> None:
    from pbem.orders import help_text

    text = help_text("bigtime")
    for shape in ("AWAY <date>", "AWAY <n> days", "e.g. AWAY 12 Dec", "AWAY 5 days", "  BACK"):
        assert shape in text
