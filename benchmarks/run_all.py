"""Run every benchmark in benchmarks/ and print a table of figure, goal and measured.

    .venv/bin/python benchmarks/run_all.py            # quick: small sizes (what `make bench` runs)
    .venv/bin/python benchmarks/run_all.py --full     # each benchmark at its own default sizes
    .venv/bin/python benchmarks/run_all.py --only app -v   # bench_*app*.py, echoing its output

Every ``bench_*.py`` beside this file is run in its own process (a new one is picked up
without changing this file); one that fails, times out or prints no figures is marked
in the table and the others still run.

The convention for a benchmark:

- It prints its figures as one JSON object: either its whole output, or its last line
  that is a JSON object. Every number in it is a row of the table; a key of ``GOALS``
  (or a key ending with one, e.g. ``mm_apply_per_second``) gets that goal and a verdict.
  Units come from the key's words: ``ms``, ``kib``, ``mib``, ``bytes`` (shown in
  KiB), a final ``s`` (seconds) or ``per_second``, e.g. ``act_p99_ms``, ``ready_s``.
- In the quick run it gets the arguments of ``QUICK_ARGS``, or ``--quick`` if it has
  that option and is not listed there, or none.

The goals are the issues': engine ≥ 5,000 actions/s and a dumped state ≤ 20 KiB;
plans with 6 Improvements and 4G ≤ 50 ms warm, ≤ 150 ms cold; a picture ≤ 100 ms and
≤ 400 KiB; with 50,000 games start-up ready ≤ 3 s, done ≤ 3 s, peak RSS ≤ 300 MiB, and
``App.act`` p99 at most 20 % slower than with 10 games (``act_p99_growth_pct``); and
issue 25's: ``App.act`` p50 at most ×5 a bare one-row transaction and at most 5 trips to
the database thread (8 on a phase change, 12 on a round end), ``App.act`` p99 ≤ 100 ms
and ≤ 250 ms with the board picture, a board drawn no slower than it is encoded, a
finished game ≤ 100 KiB in the database, and under a load of 200 games ≤ 2 ms of CPU
per action, ≥ 450 actions/s and no event-loop stall over 50 ms; and issue 36's: ``/games``
(``App.home_games``) ≤ 50 ms p99 among 50,000 games, 10,000 digests prepared in ≤ 5 s;
and issue 37's: ``App.act`` p50 on PostgreSQL ≤ ×2 SQLite's, a killed process's work
taken over in ≤ 10 s, Discord requests per action counted against the global limit at
most half of what they were (``bench_requests.py``).

The exit status is 0 only if every benchmark ran and no figure missed its goal; else 1,
and the last lines name what failed and what missed.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent

# Small sizes for the default (quick) run; a script not listed gets --quick if it has it.
QUICK_ARGS: dict[str, list[str]] = {
    "bench_engine.py": ["--games", "10"],
    "bench_mm.py": ["--games", "10"],
    "bench_plans.py": ["--runs", "3"],
    "bench_planner.py": ["--runs", "1"],
    "bench_render.py": ["--runs", "5"],
    "bench_app.py": ["--quick"],
    # 2,000 moves, as --full: at 500 the p99 growth swung more than its goal between identical
    # runs (A/A 32 %; at 2,000: 20 %), and it is graded on 3 runs (REPEATS)
    "bench_scale.py": ["--games", "1000", "--acts", "2000"],
    "bench_round_end.py": ["--runs", "3"],
    "bench_load.py": ["--quick"],
    "bench_ux.py": ["--rounds", "3"],
    "bench_storage.py": ["--reads", "1000"],
    "bench_home.py": ["--calls", "200"],  # at the goal's sizes: 50,000 games, 10,000 digests (~10 s)
    # the three whole games (about a minute): issue 37's requests per action
    "bench_requests.py": ["--games", "smartphone-inc,mobile-markets,age-of-automaton"],
}


# Benchmarks whose figures swing from run to run on a shared 2-core machine (loads,
# latencies, stalls): run this many times, and every figure is the median of the runs
# (issue 25: "the goals hold at the median of 3 runs"). ``--repeat N`` sets it for all.
REPEATS: dict[str, int] = {
    "bench_app.py": 3,
    "bench_load.py": 3,
    "bench_scale.py": 3,  # its p99 growth swings from run to run (A/A spread printed beside it)
}


@dataclass(frozen=True)
class Goal:
    text: str  # e.g. "≥ 5,000/s"
    ok: Callable[[float], bool]


def at_least(limit: float, text: str) -> Goal:
    return Goal(f"≥ {text}", lambda v: v >= limit)


def at_most(limit: float, text: str) -> Goal:
    return Goal(f"≤ {text}", lambda v: v <= limit)


GOALS: dict[str, Goal] = {
    # engine (issues 10 and 11: the same bar for every game)
    "apply_per_second": at_least(5000, "5,000/s"),
    "failures": Goal("0", lambda v: v == 0),
    "upgrade_games_not_loaded": Goal("0", lambda v: v == 0),
    "upgrade_games_not_replayed": Goal("0", lambda v: v == 0),
    "upgrade_games_not_finished": Goal("0", lambda v: v == 0),
    "largest_state_bytes_5_players": at_most(20 * 1024, "20 KiB"),
    "final_state_bytes": at_most(20 * 1024, "20 KiB"),
    "state_bytes": at_most(20 * 1024, "20 KiB"),
    # interactions (issue 7, benchmarks/bench_ux.py)
    "seal_by_goal_interactions": at_most(4, "4"),
    "seal_by_hand_interactions": at_most(8, "8 (2 Pads + 2 Improvements)"),
    # channel traffic (issue 9, benchmarks/bench_ux.py)
    "channel_writes_max_phase": at_most(2, "2"),
    "channel_writes_max_5s": at_most(5, "5"),
    # planning (issue 9)
    "distinct_outcomes_6_improvements_4g_ms": at_most(50, "50 ms"),  # the call and a page read, plans built
    "plans_6_4g_warm_ms": at_most(50, "50 ms"),
    "plans_6_4g_cold_ms": at_most(150, "150 ms"),
    "plans_6_warm_ms": at_most(50, "50 ms"),
    "plans_6_cold_ms": at_most(150, "150 ms"),
    "planner_first_screen_ms": at_most(100, "100 ms"),  # benchmarks/bench_planner.py, cold
    # pictures (issues 10 and 11: draw + PNG encode per picture)
    "render_worst_ms": at_most(100, "100 ms"),
    "round_end_pictures_ms": at_most(300, "300 ms"),
    "render_largest_png_kib": at_most(400, "400 KiB"),
    # scale (issue 9, benchmarks/bench_scale.py)
    "ready_s": at_most(3, "3 s"),
    "done_s": at_most(3, "3 s"),
    "done_without_ai_moves_s": at_most(3, "3 s (+ the owed AI moves)"),  # bench_scale --ai-seats
    "peak_rss_mib": at_most(300, "300 MiB"),
    "peak_rss_start_mib": at_most(300, "300 MiB"),
    "act_p99_growth_pct": at_most(20, "20 %"),  # App.act p99 with N games vs 10 games
    # the live table (issue 24, benchmarks/bench_table.py)
    "table_first_paint_ms": at_most(1000, "1 s"),
    "table_round_trip_ms": at_most(150, "150 ms"),
    "table_plan_gestures": at_most(6, "6"),
    "svg_5p_board_gzip_kib": at_most(150, "150 KiB"),  # issue 35, benchmarks/bench_svg.py
    # the board at the table (issue 35, benchmarks/bench_table_flow.py): painted within 1 s
    # of opening the page, and redrawn within 150 ms (p95) of a move's tap
    "board_first_paint_ms": at_most(1000, "1 s"),
    "board_round_trip_p95_ms": at_most(150, "150 ms"),
    # the cost of one action (issue 25: bench_app, bench_load)
    "act_p99_ms": at_most(100, "100 ms"),
    "act_vs_bare_tx": at_most(5, "×5"),  # App.act p50 / a bare one-row transaction's
    "trips_per_act": at_most(5, "5"),  # trips to the database thread (median)
    "trips_per_act_phase_change": at_most(8, "8"),
    "trips_per_act_round_end": at_most(12, "12"),
    "act_board_p99_ms": at_most(250, "250 ms"),  # App.act + the board picture drawn and encoded
    "act_picture_p99_ms": at_most(250, "250 ms"),  # bench_load: App.act + its pictures
    "board_draw_vs_encode": at_most(1, "×1 (draw ≤ encode)"),
    "database_kib_per_finished_game": at_most(100, "100 KiB"),
    "cpu_ms_per_action": at_most(2, "2 ms"),  # bench_load, saturated
    "saturated_actions_per_second": at_least(450, "450/s"),
    "loop_stall_max_ms": at_most(50, "50 ms"),
    # bench_load: a full pass of the garbage collector with the load's heap (the bot's
    # collector makes one every 10 minutes, or when the heap has doubled past its floor):
    # the loop stalls that long then
    "full_gc_ms": at_most(50, "50 ms"),
    # the player's home (issue 36, benchmarks/bench_home.py): /games for a player in 50
    # games among 50,000 stored ones, and the daily digest of 10,000 players
    "home_games_p99_ms": at_most(50, "50 ms"),
    "digest_prepare_s": at_most(5, "5 s"),
    # PostgreSQL (issue 37, benchmarks/bench_pg.py): an action at most twice SQLite's, and
    # a killed process's work taken over within 10 s
    "pg_vs_sqlite_act_p50": at_most(2, "×2"),
    "pg_vs_sqlite_act_p99": at_most(2, "×2"),
    "takeover_s": at_most(10, "10 s"),
    # Discord requests per action that count against the bot's global limit (issue 37,
    # benchmarks/bench_requests.py): half of what main's code made before (si 2.585,
    # mm 2.145, aoa 1.109 with `benchmarks/bench_requests.py`)
    "si_global_requests_per_action": at_most(1.29, "1.29 (half of 2.585)"),
    "mm_global_requests_per_action": at_most(1.07, "1.07 (half of 2.145)"),
    "aoa_global_requests_per_action": at_most(0.555, "0.555 (half of 1.109)"),
}


def goal_for(key: str) -> Goal | None:
    if key in GOALS:
        return GOALS[key]
    ends = [k for k in GOALS if key.endswith("_" + k) or key.endswith("." + k)]
    return GOALS[max(ends, key=len)] if ends else None


def measured_text(key: str, value: float) -> str:
    def num(v: float) -> str:
        if float(v).is_integer():
            return f"{int(v):,}"
        return f"{v:,.1f}" if abs(v) >= 10 else f"{v:.2f}"

    words = key.lower().split("_")
    if "bytes" in words:
        return f"{value / 1024:,.1f} KiB"
    if key.endswith("per_second"):
        return num(value) + "/s"
    for word, unit in (("ms", " ms"), ("kib", " KiB"), ("mib", " MiB"), ("pct", " %")):
        if word in words:
            return num(value) + unit
    return num(value) + (" s" if words[-1] == "s" else "")


def figures_of(stdout: str) -> dict[str, Any] | None:
    """The benchmark's JSON object: the whole output, else its last JSON-object line."""
    try:
        whole = json.loads(stdout)
    except ValueError:
        whole = None
    if isinstance(whole, dict):
        return whole
    for line in reversed(stdout.strip().splitlines()):
        line = line.strip()
        if line.startswith("{"):
            try:
                obj = json.loads(line)
            except ValueError:
                continue
            if isinstance(obj, dict):
                return obj
    return None


@dataclass
class Result:
    script: str
    args: list[str]
    seconds: float
    status: str  # "ok", "FAILED (exit N)", "TIMED OUT (N s)", "NO FIGURES"
    figures: dict[str, Any] = field(default_factory=dict)
    detail: str = ""  # the last line of stderr of a failure
    stdout: str = ""
    runs: int = 1


def args_for(script: Path, full: bool) -> list[str]:
    if full:
        return []
    if script.name in QUICK_ARGS:
        return QUICK_ARGS[script.name]
    return ["--quick"] if '"--quick"' in script.read_text(encoding="utf-8") else []


def run_one(script: Path, args: list[str], timeout: float) -> Result:
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:  # a benchmark writes nothing into the repository
        try:
            out = subprocess.run(
                [sys.executable, str(script), *args], capture_output=True, text=True,
                cwd=tmp, timeout=timeout,
            )
        except subprocess.TimeoutExpired:
            return Result(script.name, args, time.perf_counter() - t0, f"TIMED OUT ({timeout:.0f} s)")
    seconds = time.perf_counter() - t0
    if out.returncode != 0:
        lines = out.stderr.strip().splitlines()
        return Result(script.name, args, seconds, f"FAILED (exit {out.returncode})",
                      detail=lines[-1] if lines else "", stdout=out.stdout)
    figures = figures_of(out.stdout)
    if figures is None:
        return Result(script.name, args, seconds, "NO FIGURES", stdout=out.stdout)
    return Result(script.name, args, seconds, "ok", figures=figures, stdout=out.stdout)


def median_of(runs: list[Result]) -> Result:
    """One result from several runs of a benchmark: each number the median of the runs
    that gave it (the middle one of 3), the rest from the last run; a failed run fails
    the whole."""
    bad = [r for r in runs if r.status != "ok"]
    if bad:
        return bad[0]
    last = runs[-1]
    figures: dict[str, Any] = dict(last.figures)
    for key, value in last.figures.items():
        if isinstance(value, int | float) and not isinstance(value, bool):
            values = sorted(r.figures[key] for r in runs if isinstance(r.figures.get(key), int | float))
            figures[key] = values[(len(values) - 1) // 2] if len(values) % 2 else (
                (values[len(values) // 2 - 1] + values[len(values) // 2]) / 2)
    return Result(last.script, last.args, sum(r.seconds for r in runs), "ok", figures,
                  stdout="\n".join(r.stdout for r in runs))


def rows_of(results: list[Result]) -> list[tuple[str, str, str, str]]:
    """(figure, goal, measured, verdict) rows."""
    rows = []
    for r in results:
        name = r.script.removesuffix(".py").removeprefix("bench_")
        if r.runs > 1:
            name += f" (median of {r.runs})"
        if r.status != "ok":
            rows.append((name, "", r.status, r.detail[:80]))
            continue
        numbers = {k: v for k, v in r.figures.items()
                   if isinstance(v, int | float) and not isinstance(v, bool)}
        if not numbers:
            rows.append((name, "", "NO NUMBERS", ""))
        for key, value in numbers.items():
            goal = goal_for(key)
            verdict = "" if goal is None else ("ok" if goal.ok(value) else "MISSED")
            rows.append((f"{name}: {key}", goal.text if goal else "", measured_text(key, value), verdict))
    return rows


def table(rows: list[tuple[str, str, str, str]]) -> str:
    head = ("figure", "goal", "measured", "")
    widths = [max(len(row[i]) for row in [head, *rows]) for i in range(4)]
    lines = []
    for j, row in enumerate([head, *rows]):
        cells = [row[0].ljust(widths[0]), row[1].ljust(widths[1]), row[2].rjust(widths[2]), row[3]]
        lines.append("  ".join(cells).rstrip())
        if j == 0:
            lines.append("  ".join("-" * w for w in widths).rstrip())
    return "\n".join(lines)


def discover(directory: Path, only: str | None) -> list[Path]:
    scripts = sorted(directory.glob("bench_*.py"))
    return [s for s in scripts if only is None or only in s.name]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--full", action="store_true", help="each benchmark at its default sizes")
    ap.add_argument("--only", help="run only the bench_*.py whose name contains this")
    ap.add_argument("--timeout", type=float, default=None,
                    help="seconds per benchmark (default 600 quick, 3600 full)")
    ap.add_argument("--dir", type=Path, default=HERE, help=argparse.SUPPRESS)  # for the tests
    ap.add_argument("-v", "--verbose", action="store_true", help="echo each benchmark's output")
    ap.add_argument("--repeat", type=int, default=None,
                    help="runs of every benchmark, each figure their median (default: REPEATS, else 1)")
    args = ap.parse_args(argv)
    timeout = args.timeout or (3600 if args.full else 600)
    scripts = discover(args.dir, args.only)
    if not scripts:
        print(f"no bench_*.py in {args.dir}", file=sys.stderr)
        return 2
    results = []
    for script in scripts:
        extra = args_for(script, args.full)
        repeat = max(1, args.repeat if args.repeat is not None else REPEATS.get(script.name, 1))
        runs = []
        for i in range(repeat):
            print(f"running {script.name} {' '.join(extra)}".rstrip()
                  + (f" (run {i + 1} of {repeat})" if repeat > 1 else "") + " ...", file=sys.stderr, flush=True)
            runs.append(run_one(script, extra, timeout))
            print(f"  {runs[-1].status} in {runs[-1].seconds:.1f} s", file=sys.stderr, flush=True)
            if runs[-1].status != "ok":
                break
        result = median_of(runs)
        result.runs = len(runs)
        if args.verbose and result.stdout:
            print(result.stdout, file=sys.stderr, flush=True)
        results.append(result)
    print(f"{'full' if args.full else 'quick'} run, Python {sys.version.split()[0]}")
    print(table(rows_of(results)))
    failed = [r for r in results if r.status != "ok"]
    missed = [f"{figure} = {measured} (goal {goal})" for figure, goal, measured, verdict in rows_of(results)
              if verdict == "MISSED"]
    if failed:
        print(f"\nnot measured: {', '.join(r.script for r in failed)}")
        for r in failed:
            print(f"  {r.script}: {r.status}{' ' + r.detail if r.detail else ''}")
    if missed:
        print(f"\nmissed its goal ({len(missed)}):")
        for line in missed:
            print(f"  {line}")
    return 1 if failed or missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
