"""Brute-force placements of one Improvement on a Pad arrangement, for the tests that check
the plan enumeration against every plan (tests/test_pads.py, tests/test_plan_enumeration_rules.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.smartphone_inc import pads as P

BOTTOM = {(x, y) for x in range(3) for y in range(2)}  # the bottom Pad's cells


def candidates(bare: dict[str, Any], imp_id: str) -> Iterator[tuple[dict[str, Any], set[tuple[int, int]]]]:
    """(placement, cells of the Pads) of ``imp_id`` at every position, rotation and layer
    around the Pads of arrangement ``bare`` with a cell on the Pads (SI-PLAN-06, SI-TECH-13:
    one wholly off them is never legal: tests/test_pads.py's touches_pads test checks it),
    except an "under" Improvement wholly under the top Pad (not enumerated: the same as face
    down minus a Good). Not checked for legality."""
    t = bare["top"]
    top = set(P.top_pad_positions(t["rot"], t["x"], t["y"]))
    pads = top | BOTTOM
    xs = [p[0] for p in pads]
    ys = [p[1] for p in pads]
    for layer in ("under", "over"):
        for rot in range(4):
            for x in range(min(xs) - 2, max(xs) + 2):
                for y in range(min(ys) - 2, max(ys) + 2):
                    cells = P.improvement_positions(x, y, rot)
                    if layer == "under" and all(c in top for c in cells):
                        continue
                    if cells[0] not in pads and cells[1] not in pads:
                        continue
                    yield {"id": imp_id, "x": x, "y": y, "rot": rot, "layer": layer}, pads
