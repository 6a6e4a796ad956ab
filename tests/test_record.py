"""`@record` classes (events, orders) keep what frozen dataclasses gave: equality and hashing by
their fields, and no attributes beyond them (issue 14 made them plain slotted dataclasses)."""

from __future__ import annotations

import copy
import pickle

import pytest

from pbem.games.bigtime.events import Booked
from pbem.games.showmanager.actions import Refresh, Stage


def test_records_compare_and_hash_by_their_fields() -> None:
    event = Booked("A.M.", 1, "T01", (3, 1), 0, to=(1,))
    same = Booked("A.M.", 1, "T01", (3, 1), 0, to=(1,))
    assert event == same and hash(event) == hash(same)
    assert event != Booked("A.M.", 2, "T01", (3, 1), 0, to=(1,))
    assert len({Stage("Wolf", (1, 2, 3), "Berlin"), Stage("Wolf", (1, 2, 3), "Berlin")}) == 1
    assert Refresh() == Refresh()


def test_records_copy_and_pickle_whole() -> None:
    event = Booked("P.M.", 0, "T17", (), 2)
    assert copy.deepcopy(event) == event == pickle.loads(pickle.dumps(event))


def test_records_have_no_attributes_beyond_their_fields() -> None:
    with pytest.raises(AttributeError):
        Refresh().extra = 1  # type: ignore[attr-defined]
