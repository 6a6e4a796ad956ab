"""The headers new in every letter (Date, a reply's In-Reply-To and References) are written
without the email package's header classes: the same bytes as those classes fold them."""

from __future__ import annotations

import random
import string
import sys
from datetime import UTC, datetime, timedelta, timezone
from email.utils import format_datetime

import pytest

from pbem.moderator.mime import POLICY, folded_date, folded_ids, folded_multipart

ATOM = string.ascii_letters + string.digits + "_-"


def by_the_package(name: str, value: str) -> bytes:
    """The header as the email package folds it (not `mime.folded`: its cache is no witness)."""
    return POLICY.header_factory(name, value).fold(policy=POLICY).encode("ascii")


def message_id(rng: random.Random, longest: int) -> str:
    def dot_atom() -> str:
        atoms = rng.randint(1, 3)
        return ".".join("".join(rng.choices(ATOM, k=rng.randint(1, longest))) for _ in range(atoms))

    return f"<{dot_atom()}@{dot_atom()}>"


@pytest.mark.parametrize("longest", [4, 12, 30])
def test_message_ids_fold_as_the_package_folds_them(longest: int) -> None:
    """One to five ids, short ones and ones too long for a line: on the header's line, on the
    next line together, filled into lines, or left to the package."""
    rng = random.Random(longest)
    for _ in range(1500):
        value = " ".join(message_id(rng, longest) for _ in range(rng.randint(1, 5)))
        for name in ("In-Reply-To", "References"):
            assert folded_ids(name, value) == by_the_package(name, value), value


@pytest.mark.parametrize(
    "value",
    [
        "<a@b>  <c@d>",  # two spaces
        " <a@b>",
        "<a@b> ",
        "<a b@c>",
        "=?utf-8?q?=C2=B7?= <a@b>",
        "<a@b>, <c@d>",
        "<ä@b>",
        "no id at all",
        "",
    ],
)
def test_other_values_are_left_to_the_package(value: str) -> None:
    assert folded_ids("References", value) == by_the_package("References", value)


def test_a_date_is_written_as_the_package_writes_it() -> None:
    rng = random.Random(5)
    for _ in range(2000):
        seconds = rng.randint(0, 3_000_000_000)
        moment = datetime(1990, 1, 1, tzinfo=UTC) + timedelta(seconds=seconds, microseconds=1)
        assert folded_date(moment) == by_the_package("Date", format_datetime(moment))
    elsewhere = datetime(2026, 12, 2, 9, 30, tzinfo=timezone(timedelta(hours=-5)))
    assert folded_date(elsewhere) == by_the_package("Date", format_datetime(elsewhere))


def test_a_boundary_is_written_as_the_package_writes_it() -> None:
    rng = random.Random(9)
    boundaries = [f"{'=' * 15}{rng.randrange(sys.maxsize):019d}==" for _ in range(300)]
    boundaries += [
        f"{'=' * rng.randint(1, 40)}{rng.randrange(10 ** rng.randint(1, 60))}==" for _ in range(300)
    ]
    boundaries += ["plain", "==1==2==", "=====0=="]
    for boundary in boundaries:
        for subtype in ("alternative", "mixed"):
            value = f'multipart/{subtype}; boundary="{boundary}"'
            assert folded_multipart(subtype, boundary) == by_the_package("Content-Type", value)
