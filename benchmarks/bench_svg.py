"""The public board as SVG (issue 35): its size gzipped and the time to draw it.

Run: ``.venv/bin/python benchmarks/bench_svg.py [--runs N] [--quick]`` (``--quick``: one
timed run, what ``make bench`` runs).

The 5-player Smartphone Inc. board of the reference pictures (tests/reference/
board-end-5p.json, the last round of a 5-player game with its final scores) and the
reference boards of the other two games, each drawn by :func:`render.svg.board` (the
table's ``/api/board.svg``). Printed (the last line, one JSON object):

- ``svg_5p_board_gzip_kib``: the 5-player Smartphone Inc. board's SVG, gzipped (level 9,
  what a server would send), in KiB: the issue's goal is ≤ 150 KiB;
- ``svg_5p_board_raw_kib``: the same, not compressed;
- ``svg_mm_board_gzip_kib``, ``svg_aoa_board_gzip_kib``: the other games' boards;
- ``svg_5p_board_draw_ms``: the median time to draw the 5-player board as SVG, warm.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from render import svg  # noqa: E402

REF = ROOT / "tests" / "reference"
BOARDS = {
    "5p_board": ("smartphone-inc", "board-end-5p.json"),
    "mm_board": ("mobile-markets", "mm-board-end.json"),
    "aoa_board": ("age-of-automaton", "aoa-board-r3.json"),
}


def view_of(name: str) -> dict[str, Any]:
    data = json.loads((REF / name).read_text("utf-8"))
    view: dict[str, Any] = data.get("view", data)
    return view


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="one timed run")
    args = ap.parse_args()
    if args.quick:
        args.runs = 1
    out: dict[str, float] = {}
    for key, (game, name) in BOARDS.items():
        view = view_of(name)
        text = svg.board(game, view).encode("utf-8")
        out[f"svg_{key}_gzip_kib"] = round(len(gzip.compress(text, 9)) / 1024, 1)
        if key == "5p_board":
            out["svg_5p_board_raw_kib"] = round(len(text) / 1024, 1)
            times = []
            for _ in range(max(1, args.runs)):
                t0 = time.perf_counter()
                svg.board(game, view)
                times.append((time.perf_counter() - t0) * 1000)
            out["svg_5p_board_draw_ms"] = round(statistics.median(times), 1)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
