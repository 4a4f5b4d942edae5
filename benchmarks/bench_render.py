"""Time the pictures (Smartphone Inc. and Mobile Markets): draw, PNG encode, and both together.

Run: ``.venv/bin/python benchmarks/bench_render.py [--runs N] [--json]``.

The views are the stored reference views (``tests/reference/*.json``: the start of a
3-player game, the end of round 3 with Steve, the end of a 5-player game, two private
pictures and a plan preview; for Mobile Markets the ``mm-*`` views: three tables, two
desks, a plan and a product preview), so the figures compare across engine changes. The PNG is
encoded as the bot does (``bot.pictures.png_bytes``: zlib level 3 for the renderer's
palette pictures; ``--level 6`` shows the former default level). "cold" is
the first draw in the process (fonts load, icons are drawn and cached); the other
columns are medians of ``--runs`` warm runs ("cpu_ms": the process's CPU time for
draw + encode, which a machine shared with other work does not inflate). The bar is draw + encode < 150 ms median.

The compact pictures (``render.draw_compact``: the one decision a seat has, for phones)
are timed on their own reference views (``tests/reference/compact-*.json``: Planning,
Improve, Research, Logistics, Selling, a Retailer bonus); their bar is draw + encode
<= 100 ms median and a PNG of at most 400 KiB.
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
from bot import pictures  # noqa: E402
from tests.test_render_compact import CASES as COMPACT_KINDS  # noqa: E402
from tests.test_render_mm import CASES as MM_CASES  # noqa: E402
from tests.test_render_reference import CASES as SI_CASES  # noqa: E402

REF = ROOT / "tests" / "reference"
CASES = SI_CASES + MM_CASES  # the reference pictures of the tests
COMPACT = tuple(f"compact-{kind}" for kind in COMPACT_KINDS)
GAME = "smartphone-inc"


def draw(case: dict[str, Any]) -> Any:
    game = case["view"].get("game", GAME)
    if case.get("compact"):
        return render.draw_compact(game, case["view"])
    if "plan" in case:
        return render.draw_plan(game, case["view"], case["plan"])
    return render.draw(game, case["view"])


LEVEL: int | None = None  # None: as the bot encodes (bot.pictures.png_bytes)


def encode(image: Any) -> bytes:
    if LEVEL is None:
        data = pictures.png_bytes(image)
        if data is None:
            raise RuntimeError("picture over the upload limit")
        return data
    buf = io.BytesIO()
    image.save(buf, format="PNG", optimize=False, compress_level=LEVEL)
    return buf.getvalue()


def _ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000


def run(runs: int = 30) -> list[dict[str, Any]]:
    rows = []
    cold_done = False
    for name in CASES + COMPACT:
        case = json.loads((REF / f"{name}.json").read_text("utf-8"))
        case["compact"] = name in COMPACT
        cold = None
        if not cold_done:
            t0 = time.perf_counter()
            draw(case)
            cold = _ms(t0)
            cold_done = True
        draws, encodes, totals, cpus = [], [], [], []
        size = 0
        dims = (0, 0)
        for _ in range(runs):
            c0 = time.process_time()
            t0 = time.perf_counter()
            image = draw(case)
            t1 = time.perf_counter()
            data = encode(image)
            t2 = time.perf_counter()
            cpus.append((time.process_time() - c0) * 1000)
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
                "cpu_ms": round(statistics.median(cpus), 1),
            }
        )
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--json", action="store_true", help="print JSON rows instead of a table")
    ap.add_argument("--level", type=int, default=None, help="zlib level instead of the bot's encoding")
    args = ap.parse_args()
    global LEVEL
    LEVEL = args.level
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
        "cpu_ms",
        "cold_ms",
    )
    print("  ".join(f"{c:>16}" for c in cols))
    for r in rows:
        print("  ".join(f"{'' if r[c] is None else r[c]!s:>16}" for c in cols))
    full = [r for r in rows if r["case"] not in COMPACT]
    small = [r for r in rows if r["case"] in COMPACT]
    worst = max(r["total_ms"] for r in full)
    print(
        f"\nworst median draw+encode: {worst} ms (bar: 150 ms); largest PNG: {max(r['png_kib'] for r in full)} KiB (bar: 1024 KiB)"
    )
    c_worst = max(r["total_ms"] for r in small)
    c_kib = max(r["png_kib"] for r in small)
    c_cpu = max(r["cpu_ms"] for r in small)
    print(
        f"compact pictures: worst median draw+encode {c_worst} ms (bar: 100 ms; CPU time {c_cpu} ms); "
        f"largest PNG {c_kib} KiB (bar: 400 KiB)"
    )
    # the last line, for benchmarks/run_all.py
    print(
        json.dumps(
            {
                "render_worst_ms": worst,
                "render_largest_png_kib": max(r["png_kib"] for r in full),
                "compact_render_worst_ms": c_worst,
                "compact_render_largest_png_kib": c_kib,
                "compact_render_worst_cpu_ms": c_cpu,
            }
        )
    )


if __name__ == "__main__":
    main()
