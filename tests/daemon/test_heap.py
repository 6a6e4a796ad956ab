"""The daemon keeps what starting made out of the collector's full passes, once a process."""

from __future__ import annotations

import gc

from pbem.daemon.heap import settle_startup_objects


def test_startup_objects_are_frozen_once_a_process() -> None:
    settle_startup_objects()  # a no-op if a daemon of an earlier test settled them already
    frozen = gc.get_freeze_count()
    assert frozen > 10_000  # the modules, templates and mappings, not a handful

    made_later = [[index] for index in range(1_000)]
    settle_startup_objects()

    # A second freeze would have kept what was made since (and any garbage waiting) for good.
    assert gc.get_freeze_count() == frozen
    assert gc.is_tracked(made_later[0])
