"""Building ``data/outcome_tables.bin`` (see :mod:`engine.smartphone_inc.outcome_tables`,
which reads it): every table computed by ``decisions._computed_outcome_table``, for
n = 0.. Improvements until it stops changing. Run it after changing the Pads::

    .venv/bin/python -m engine.smartphone_inc.outcome_tables_build
"""

from __future__ import annotations

import json
import sys
import zlib
from array import array
from pathlib import Path
from typing import Any

from engine.smartphone_inc.decisions import _computed_outcome_table
from engine.smartphone_inc.outcome_tables import FORMAT, PATH, _header, fingerprint

__all__ = ["build", "write"]

NMAX_LIMIT = 16  # tables are built for n = 0.. until they stop changing (at most this)


def _blob(table: dict[tuple[int, int], Any]) -> tuple[list[list[int]], bytes]:
    keys, where = array("Q"), array("I")
    groups = []
    for fh in sorted(table):
        group = table[fh]
        keys.extend(group[0])
        where.extend(group[1])
        groups.append([fh[0], fh[1], len(group[0])])
    if sys.byteorder != "little":
        keys.byteswap()
        where.byteswap()
    return groups, zlib.compress(keys.tobytes() + where.tobytes(), 9)


def build() -> bytes:
    """The whole file, computed from scratch (seconds to minutes)."""
    tables = []
    blobs = []
    offset = 0
    saturate = {}
    for has_4g in (False, True):
        previous = None
        for n in range(NMAX_LIMIT + 1):
            table = _computed_outcome_table(has_4g, n)
            plain = {fh: (g[0], g[1]) for fh, g in table.items()}
            if plain == previous:
                saturate[str(int(has_4g))] = n - 1
                break
            previous = plain
            groups, blob = _blob(table)
            tables.append({"has_4g": has_4g, "nmax": n, "groups": groups, "offset": offset, "size": len(blob)})
            blobs.append(blob)
            offset += len(blob)
        else:
            raise RuntimeError(f"the tables still change at {NMAX_LIMIT} Improvements")
    header = {"fingerprint": fingerprint(), "format": FORMAT, "saturate": saturate, "tables": tables}
    return json.dumps(header, separators=(",", ":")).encode() + b"\n" + b"".join(blobs)


def write(path: Path = PATH) -> int:
    data = build()
    path.write_bytes(data)
    _header.cache_clear()
    return len(data)


if __name__ == "__main__":
    print(f"wrote {write()} bytes to {PATH}")
