"""The geometry tables of Phase 1 Planning, computed once and shipped as data.

:func:`engine.smartphone_inc.decisions.distinct_outcomes` joins, for a number of
Improvements ``n`` and 4G or not, a table of what the Pads alone can show
(``decisions._computed_outcome_table``: the hidden-cell patterns of the 60 top-Pad
placements, joined with the 480 arrangements) with what the owned Improvements
show. Computing that table takes seconds (4G, 6 Improvements: about 2 s on a
quiet 2-core machine), so it is computed here, at build time, and stored in
``data/outcome_tables.bin``; a process only decompresses the one it needs.

The table for ``n`` Improvements is the same for every ``n`` from the largest
number of Improvements that can lie on the Pads at once (6 without 4G, 10 with
4G): larger ``n`` read that one.

File format (little-endian): one JSON header line (``fingerprint``, ``saturate``
per 4G flag, and per table ``has_4g``, ``nmax``, its groups ``[f, h, rows]``,
and the ``offset``/``size`` of its zlib blob after the header), then the blobs.
A blob holds, group after group, the row keys as unsigned 64-bit ints and then
the row witnesses (arrangement << 16 | hidden mask) as unsigned 32-bit ints.

``fingerprint`` hashes what the tables are computed from (the Pads, the symbol
order, the top-Pad placements and :data:`FORMAT`). If the data no longer matches,
:func:`load` returns ``None`` and the caller computes the table itself: slow,
never wrong. ``tests/test_plan_enumeration.py`` checks that the shipped file is
current. This module reads the file; :mod:`engine.smartphone_inc.outcome_tables_build`
writes it (it computes with ``decisions``, which reads with this module). Rebuild it
with::

    .venv/bin/python -m engine.smartphone_inc.outcome_tables_build
"""

from __future__ import annotations

import hashlib
import json
import sys
import zlib
from array import array
from functools import cache
from pathlib import Path
from typing import Any

from engine.smartphone_inc.data import PADS, SYMBOLS
from engine.smartphone_inc.pads import _PLACEMENTS

__all__ = ["PATH", "FORMAT", "fingerprint", "load"]

PATH = Path(__file__).resolve().parent / "data" / "outcome_tables.bin"
FORMAT = 1  # bump when the way the tables are computed changes

# {group (f, h): (row keys, row witnesses)} in sorted group order
Table = dict[tuple[int, int], tuple[list[int], list[int]]]


def fingerprint() -> str:
    source = json.dumps([FORMAT, list(SYMBOLS), PADS, _PLACEMENTS], sort_keys=True)
    return hashlib.sha256(source.encode()).hexdigest()[:16]


@cache
def _header() -> tuple[dict[str, Any], int] | None:
    try:
        with PATH.open("rb") as fh:
            line = fh.readline()
    except OSError:
        return None
    try:
        header = json.loads(line)
    except ValueError:
        return None
    if header.get("fingerprint") != fingerprint():
        return None
    return header, len(line)


def load(has_4g: bool, nmax: int) -> Table | None:
    """The shipped table for (``has_4g``, ``nmax`` Improvements), or None if there is none."""
    found = _header()
    if found is None:
        return None
    header, start = found
    n = min(nmax, header["saturate"][str(int(has_4g))])
    for entry in header["tables"]:
        if entry["has_4g"] == bool(has_4g) and entry["nmax"] == n:
            break
    else:
        return None
    with PATH.open("rb") as fh:
        fh.seek(start + entry["offset"])
        raw = zlib.decompress(fh.read(entry["size"]))
    rows = sum(count for _f, _h, count in entry["groups"])
    keys, where = array("Q"), array("I")
    keys.frombytes(raw[: rows * 8])
    where.frombytes(raw[rows * 8 :])
    if sys.byteorder != "little":
        keys.byteswap()
        where.byteswap()
    table: Table = {}
    at = 0
    for f, h, count in entry["groups"]:
        table[(f, h)] = (keys[at : at + count].tolist(), where[at : at + count].tolist())
        at += count
    return table
