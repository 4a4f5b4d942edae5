"""Process-wide settings of the bot's process (``boardroom run``).

:func:`tune_gc`: Python's cyclic garbage collector stops the event loop while it walks
every container object; with a few hundred games' states in memory a full pass took
100-270 ms (``benchmarks/bench_load.py``, ``saturated_gc_pause_max_ms``), a stall every
player of every game waits out. The states are trees freed by reference counting, so
the collector finds little: it runs a tenth as often (a young generation of 10,000
objects instead of 700, older ones after 20 of the younger passes) and the objects
alive after start-up (modules, data tables, fonts) are frozen out of its walks
(``gc.freeze``). Garbage cycles are still collected, only less often.
"""

from __future__ import annotations

import gc

GC_THRESHOLDS = (10_000, 20, 20)


def tune_gc() -> None:
    """Collect once, freeze what is alive now, and collect less often from now on."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
