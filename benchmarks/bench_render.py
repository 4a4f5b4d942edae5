"""Time the pictures (Smartphone Inc. and Mobile Markets): draw, PNG encode, and both together.

Run: ``.venv/bin/python benchmarks/bench_render.py [--runs N] [--json]``.

The views are the stored reference views (``tests/reference/*.json``: the start of a
3-player game, the end of round 3 with Steve, the end of a 5-player game, two private
pictures and a plan preview; for Mobile Markets the ``mm-*`` views: three tables, two
desks, a plan and a product preview), so the figures compare across engine changes. The PNG is
encoded as the bot does (``image.save(buf, format="PNG", optimize=False)``). "cold" is
the first draw in the process (fonts load, icons are drawn and cached); the other
columns are medians of ``--runs`` warm runs. The bar is draw + encode < 150 ms median.
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import render  # noqa: E402

REF = ROOT / "tests" / "reference"
CASES = (
    "board-start",
    "board-round3",
    "board-end-5p",
    "private-planning",
    "private-sell",
    "plan-preview",
    "mm-board-start",
    "mm-board-round3",
    "mm-board-end",
    "mm-private-planning",
    "mm-private-sales",
    "mm-plan-preview",
    "mm-product-preview",
)
GAME = "smartphone-inc"


def draw(case: dict[str, Any]) -> Any:
    game = case["view"].get("game", GAME)
    if "plan" in case:
        return render.draw_plan(game, case["view"], case["plan"])
    return render.draw(game, case["view"])


def encode(image: Any) -> bytes:
    buf = io.BytesIO()
    image.save(buf, format="PNG", optimize=False)
    return buf.getvalue()


def _ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000


def run(runs: int = 30) -> list[dict[str, Any]]:
    rows = []
    cold_done = False
    for name in CASES:
        case = json.loads((REF / f"{name}.json").read_text("utf-8"))
        cold = None
        if not cold_done:
            t0 = time.perf_counter()
            draw(case)
            cold = _ms(t0)
            cold_done = True
        draws, encodes, totals = [], [], []
        size = 0
        dims = (0, 0)
        for _ in range(runs):
            t0 = time.perf_counter()
            image = draw(case)
            t1 = time.perf_counter()
            data = encode(image)
            t2 = time.perf_counter()
            draws.append((t1 - t0) * 1000)
            encodes.append((t2 - t1) * 1000)
            totals.append((t2 - t0) * 1000)
            size, dims = len(data), image.size
        rows.append(
            {
                "case": name,
                "size": f"{dims[0]}x{dims[1]}",
                "png_kib": round(size / 1024),
                "cold_ms": None if cold is None else round(cold, 1),
                "draw_ms": round(statistics.median(draws), 1),
                "encode_ms": round(statistics.median(encodes), 1),
                "total_ms": round(statistics.median(totals), 1),
                "total_p90_ms": round(sorted(totals)[int(0.9 * (len(totals) - 1))], 1),
            }
        )
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--json", action="store_true", help="print JSON rows instead of a table")
    args = ap.parse_args()
    rows = run(args.runs)
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    cols = (
        "case",
        "size",
        "png_kib",
        "draw_ms",
        "encode_ms",
        "total_ms",
        "total_p90_ms",
        "cold_ms",
    )
    print("  ".join(f"{c:>16}" for c in cols))
    for r in rows:
        print("  ".join(f"{'' if r[c] is None else r[c]!s:>16}" for c in cols))
    worst = max(r["total_ms"] for r in rows)
    print(
        f"\nworst median draw+encode: {worst} ms (bar: 150 ms); largest PNG: {max(r['png_kib'] for r in rows)} KiB (bar: 1024 KiB)"
    )
    # the last line, for benchmarks/run_all.py
    print(json.dumps({"render_worst_ms": worst, "render_largest_png_kib": max(r["png_kib"] for r in rows)}))


if __name__ == "__main__":
    main()
