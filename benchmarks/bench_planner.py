"""The planner's first screen, cold: what ``bot/cogs/play.py`` ``planner_message`` computes
the first time a company opens its Phase 1 planner in a freshly started bot.

Run: ``.venv/bin/python benchmarks/bench_planner.py [--runs N]``.

Each run is a fresh process (``python -c``) with compiled modules (as pip installs
them; one untimed process first writes them to a temporary cache). The company owns 6 Improvements and has
4G (the largest outcome lists). Timed one after another, as ``planner_message`` does:

* ``imports_ms``: importing the planner, the presenter and the renderer (the bot does
  this once at start-up, before it is ready: not part of the first screen);
* ``choices_ms``: the first select's options (``PlanBuilder.choices`` of a fresh draft:
  the goals with their best decision, from ``decisions.goods_effects`` grouped by
  ``planning.summary_for``; the full ``planning.yields`` only of each goal's best);
* ``describe_ms``: the text and the preview of the draft;
* ``picture_ms``: the decision's picture (``render.draw_compact``), drawn and encoded
  as the bot does (``bot.pictures.draw_png``);
* ``first_screen_ms``: choices + describe + picture (imports done), the figure of issue
  9 (goal ≤ 100 ms cold); ``first_screen_cpu_ms`` the CPU time of the same (on the
  shared machine wall-clock times swing with the other processes' load).

The figures are medians of ``--runs`` processes. Each process first runs
``bot.pictures.warm_up()``, as the bot does when it starts (not timed: it runs in the
picture worker while the bot connects); ``--no-warm-up`` leaves it out (the bot before).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import json, time
t0 = time.perf_counter()
import render
from bot import pictures
from bot.games.smartphone_inc.presenter import PLANNER, PRESENTER
from engine.smartphone_inc.game import GAME
t1 = time.perf_counter()
if {warm}:
    pictures.warm_up()
state = GAME.setup(["a", "b", "c"], 1, {{}})
state["players"]["a"]["improvements"] = ["S-green", "I03", "I12", "I20", "I24", "I07"]
view = GAME.view(state, "a")
prompt = dict(view["prompt"])
prompt["has_4g"] = True  # as if company a had 4G
t2 = time.perf_counter()
c2 = time.process_time()
ctx = PLANNER.context(prompt, view, "a")
draft = PLANNER.decode(None)
options = PLANNER.choices(draft, ctx)
t3 = time.perf_counter()
PLANNER.describe(draft, ctx)
preview = PLANNER.preview(draft, ctx)
t4 = time.perf_counter()
assert preview is None
fn = getattr(render, PRESENTER.prompt_picture(prompt) or "draw")
png = pictures.draw_png(fn, ("smartphone-inc", view))
t5 = time.perf_counter()
c5 = time.process_time()
assert png and len(options) > 5
print(json.dumps({{"imports_ms": (t1 - t0) * 1000, "choices_ms": (t3 - t2) * 1000,
                  "describe_ms": (t4 - t3) * 1000, "picture_ms": (t5 - t4) * 1000,
                  "first_screen_ms": (t5 - t2) * 1000, "first_screen_cpu_ms": (c5 - c2) * 1000}}))
"""


def run(runs: int = 3, warm: bool = False) -> dict[str, float]:
    rows = []
    with tempfile.TemporaryDirectory() as cache:
        # compiled modules, as an installed bot has them (pip compiles them; this
        # environment sets PYTHONDONTWRITEBYTECODE): a first, untimed process writes them
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | {"PYTHONPYCACHEPREFIX": cache}
        for i in range(runs + 1):
            out = subprocess.run(
                [sys.executable, "-c", CHILD.format(warm=warm)],
                capture_output=True, text=True, check=True, cwd=ROOT, env=env,
            ).stdout
            if i:
                rows.append(json.loads(out.strip().splitlines()[-1]))
    return {key: round(statistics.median(r[key] for r in rows), 1) for key in rows[0]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="fresh processes (median)")
    parser.add_argument("--no-warm-up", action="store_true", help="leave out the bot's start-up warm-up")
    args = parser.parse_args(argv)
    figures = run(args.runs, not args.no_warm_up)
    print(f"planner first screen, 6 Improvements with 4G, fresh process, median of {args.runs}")
    for key, value in figures.items():
        print(f"{key:>16}: {value}")
    print(json.dumps({"planner_" + k: v for k, v in figures.items()}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
