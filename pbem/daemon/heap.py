"""Keeping the garbage collector's full passes off what a daemon made while starting.

The modules, the compiled templates and the database's mappings, some 230,000 objects, live as
long as the process. Python's collector walks every tracked object in each full pass, and a
daemon's caches (parts of boards, parsed headers) grow enough to set off a full pass every few
hundred orders: 0.1 s each on the development machine, a pause in the middle of an email and,
in `bench.throughput`, 0.2 of pbem's 0.3 s in the collector (docs/benchmarks.md, thirteenth
pass). Frozen, those objects are no longer walked; what is made afterwards is collected as
before.
"""

from __future__ import annotations

import gc

_settled = False


def settle_startup_objects() -> None:
    """Freeze what exists now out of the collector's passes; once a process, at the first
    daemon's start: a second freeze would also keep whatever later garbage is waiting."""
    global _settled
    if _settled:
        return
    gc.collect()  # what is already garbage is freed, not frozen
    gc.freeze()
    _settled = True
