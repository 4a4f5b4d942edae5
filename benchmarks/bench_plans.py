"""Time ``decisions.distinct_outcomes`` (Smartphone Inc. Phase 1 Planning) with 0, 3 and 6 Improvements.

Run: ``.venv/bin/python benchmarks/bench_plans.py [--runs N]``.

``distinct_outcomes`` returns a lazy sequence (its outcomes and their plans are built
when read), so every plans figure is the call plus reading the first ``LOOK`` (25)
outcomes with their plans: what a player looks at (one page of a list). "all" is
``list(distinct_outcomes(...))``: every plan dict built (what the call cost before it
became lazy). "cold" is the first call for a (has_4g, number of Improvements) in this
process: it reads the shipped tables. "warm" is the median of the following calls.
"refs" is ``with_plans=False`` (outcomes without plan dicts, see ``outcome_plan``). "effects" is ``distinct_effects`` (what the planner and the greedy
player call: one outcome per distinct effect). ``--cold`` runs each figure's first call
in a fresh process instead (``python -c``), the way a restarted bot meets it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.smartphone_inc import decisions  # noqa: E402

OWNED = {
    0: [],
    3: ["S-green", "I03", "I12"],
    6: ["S-green", "I03", "I12", "I20", "I24", "I07"],
}


LOOK = 25  # outcomes read per call: one page of a list


def look(owned: list[str], has_4g: bool, **kw: Any) -> list[dict[str, Any]]:
    """The call and the first ``LOOK`` outcomes read (plans built)."""
    return decisions.distinct_outcomes(owned, has_4g, **kw)[:LOOK]


def _time(fn: Any) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def run(runs: int = 7) -> list[dict[str, Any]]:
    rows = []
    for has_4g in (False, True):
        for n, owned in OWNED.items():
            cold = _time(lambda o=owned, g=has_4g: look(o, g))
            warm = statistics.median(_time(lambda o=owned, g=has_4g: look(o, g)) for _ in range(runs))
            refs = statistics.median(
                _time(lambda o=owned, g=has_4g: look(o, g, with_plans=False)) for _ in range(runs)
            )
            every = statistics.median(
                _time(lambda o=owned, g=has_4g: list(decisions.distinct_outcomes(o, g))) for _ in range(runs)
            )
            effects = statistics.median(
                _time(lambda o=owned, g=has_4g: decisions.distinct_effects(o, g)) for _ in range(runs)
            )
            count = len(decisions.distinct_outcomes(owned, has_4g, with_plans=False))
            rows.append(
                {"has_4g": has_4g, "improvements": n, "outcomes": count, "cold_ms": cold * 1000,
                 "warm_ms": warm * 1000, "refs_ms": refs * 1000, "effects_ms": effects * 1000,
                 "all_ms": every * 1000}
            )
    return rows


COLD = """
import time
from engine.smartphone_inc import decisions
t = time.perf_counter()
decisions.{call}
print((time.perf_counter() - t) * 1000)
"""
COLD_CALLS = {
    "plans": "distinct_outcomes({owned!r}, {g})[:25]",
    "refs": "distinct_outcomes({owned!r}, {g}, with_plans=False)[:25]",
    "effects": "distinct_effects({owned!r}, {g})",
}


def run_cold(runs: int = 3) -> list[dict[str, Any]]:
    """The first call in a fresh process (imports done before the clock starts), median of ``runs``."""
    root = Path(__file__).resolve().parent.parent
    rows = []
    for has_4g in (False, True):
        row: dict[str, Any] = {"has_4g": has_4g, "improvements": 6}
        for name, call in COLD_CALLS.items():
            code = COLD.format(call=call.format(owned=OWNED[6], g=has_4g))
            times = [
                float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                                     cwd=root).stdout)
                for _ in range(runs)
            ]
            row[f"{name}_ms"] = statistics.median(times)
        rows.append(row)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="warm runs per figure (median)")
    parser.add_argument("--cold", action="store_true", help="first calls in fresh processes (6 Improvements)")
    args = parser.parse_args(argv)
    if args.cold:
        print(f"first call in a fresh process, 6 Improvements, median of {args.runs} processes")
        print(f"{'4G':>5} {'plans ms':>9} {'refs ms':>9} {'effects ms':>10}")
        for r in run_cold(args.runs):
            print(f"{'yes' if r['has_4g'] else 'no':>5} {r['plans_ms']:>9.1f} {r['refs_ms']:>9.1f} {r['effects_ms']:>10.1f}")
        return 0
    print(f"distinct_outcomes, median of {args.runs} warm runs")
    print(f"{'4G':>5} {'impr':>4} {'outcomes':>9} {'cold ms':>9} {'warm ms':>9} {'refs ms':>9} {'effects ms':>10}"
          f" {'all ms':>9}")
    rows = run(args.runs)
    for r in rows:
        print(
            f"{'yes' if r['has_4g'] else 'no':>5} {r['improvements']:>4} {r['outcomes']:>9} "
            f"{r['cold_ms']:>9.1f} {r['warm_ms']:>9.1f} {r['refs_ms']:>9.1f} {r['effects_ms']:>10.1f}"
            f" {r['all_ms']:>9.1f}"
        )
    six = {r["has_4g"]: r for r in rows if r["improvements"] == 6}
    figures = {}  # the last line, for benchmarks/run_all.py
    for has_4g, tag in ((True, "_4g"), (False, "")):
        for kind in ("warm", "cold"):
            figures[f"plans_6{tag}_{kind}_ms"] = round(six[has_4g][f"{kind}_ms"], 1)
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
