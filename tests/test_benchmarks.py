"""The benchmarks still run (smallest sizes): a broken benchmark is found here, not by
the next person who wants a figure. No timing is asserted. ``benchmarks/run_all.py``
(what ``make bench`` runs) is checked on small stand-in benchmarks."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.table_support import needs_chromium

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks"

_spec = importlib.util.spec_from_file_location("run_all", BENCH / "run_all.py")
assert _spec and _spec.loader
run_all = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("run_all", run_all)  # dataclasses look their module up
_spec.loader.exec_module(run_all)


@pytest.mark.parametrize(
    "args",
    [
        ["bench_engine.py", "--games", "2", "--runs", "1", "--plan-runs", "1"],
        ["bench_mm.py", "--games", "2"],
        ["bench_plans.py", "--runs", "1"],
        ["bench_planner.py", "--runs", "1"],
        ["bench_render.py", "--runs", "1"],
        ["bench_round_end.py", "--runs", "1", "--pace", "0.25"],
        ["bench_app.py", "--quick", "--startup-games", "5"],
        ["bench_upgrade.py", "--quick", "--runs", "3"],
        ["bench_scale.py", "--games", "12", "--acts", "5", "--baseline", "10"],
        ["bench_aoa.py", "--games", "2", "--bot-games", "1"],
        pytest.param(["bench_table.py", "--runs", "1"], marks=needs_chromium),  # the live table in Chromium
        pytest.param(["bench_table_flow.py", "--runs", "1"], marks=needs_chromium),  # the board at the table
        ["bench_load.py", "--games", "4", "--seconds", "1", "--per", "0.25"],
        ["bench_home.py", "--games", "200", "--digests", "50", "--calls", "10"],
        ["bench_svg.py", "--runs", "1"],
        # PostgreSQL beside SQLite (issue 37): the database of BOARDROOM_TEST_DB
        pytest.param(["bench_pg.py", "--games", "2", "--seconds", "0.2"], marks=pytest.mark.postgres),
    ],
    ids=lambda args: args[0].removesuffix(".py"),
)
def test_benchmark_runs(args, tmp_path):
    out = subprocess.run(
        [sys.executable, str(BENCH / args[0]), *args[1:]],
        capture_output=True, text=True, cwd=tmp_path, timeout=600,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip()
    # its figures reach make bench's table
    figures = run_all.figures_of(out.stdout)
    assert figures and any(run_all.goal_for(k) for k in figures) or args[0] == "bench_app.py"
    assert figures and any(isinstance(v, float | int) for v in figures.values())


def test_every_benchmark_is_quick_in_make_bench():
    """A benchmark gets small sizes in the default run: listed in QUICK_ARGS or --quick."""
    scripts = run_all.discover(BENCH, None)
    assert {s.name for s in scripts} >= set(run_all.QUICK_ARGS)
    for script in scripts:
        assert run_all.args_for(script, full=False), script.name
        assert run_all.args_for(script, full=True) == []


STAND_INS = {
    "bench_lines.py": """
        print("some human lines")
        print('{"not": "the last JSON line"}')
        print('{"apply_per_second": 6000, "render_worst_ms": 250.5, "note": "x", "flag": true}')
    """,
    "bench_whole.py": """
        import json
        print(json.dumps({"largest_state_bytes_5_players": 30720, "games": 3}, indent=1))
    """,
    "bench_broken.py": """
        raise SystemExit("boom: no such table")
    """,
    "bench_quiet.py": """
        print("a table without JSON")
    """,
    "bench_sized.py": """
        import json, sys
        # accepts "--quick"
        print(json.dumps({"mm_apply_per_second": 4000, "quick": int("--quick" in sys.argv)}))
    """,
}


def run_stand_ins(tmp_path: Path, *extra: str, status: int = 1) -> str:
    for name, body in STAND_INS.items():
        (tmp_path / name).write_text(textwrap.dedent(body), encoding="utf-8")
    (tmp_path / "helper.py").write_text("raise SystemExit(3)\n", encoding="utf-8")  # not bench_*
    out = subprocess.run(
        [sys.executable, str(BENCH / "run_all.py"), "--dir", str(tmp_path), "--timeout", "60", *extra],
        capture_output=True, text=True, cwd=tmp_path, timeout=300,
    )
    assert out.returncode == status, out.stderr  # 1: a benchmark failed or a figure missed
    return out.stdout


def row(stdout: str, figure: str) -> list[str]:
    lines = [line for line in stdout.splitlines() if line.startswith(figure + " ")]
    assert len(lines) == 1, (figure, stdout)
    return lines[0].split()


def test_run_all_tables_figures_goals_and_failures(tmp_path):
    out = run_stand_ins(tmp_path)
    assert out.splitlines()[1].split() == ["figure", "goal", "measured"]
    assert row(out, "lines: apply_per_second") == ["lines:", "apply_per_second", "≥", "5,000/s", "6,000/s", "ok"]
    assert row(out, "lines: render_worst_ms") == ["lines:", "render_worst_ms", "≤", "100", "ms", "250.5", "ms", "MISSED"]
    assert "note" not in out and "flag" not in out and "the last JSON line" not in out
    assert row(out, "whole: largest_state_bytes_5_players")[-4:] == ["KiB", "30.0", "KiB", "MISSED"]
    assert row(out, "whole: games") == ["whole:", "games", "3"]  # a figure without a goal
    assert row(out, "broken")[:3] == ["broken", "FAILED", "(exit"] and "boom: no such table" in out
    assert row(out, "quiet") == ["quiet", "NO", "FIGURES"]
    # a goal by suffix (a game's prefix), and --quick passed to a script that has it
    assert row(out, "sized: mm_apply_per_second")[-2:] == ["4,000/s", "MISSED"]
    assert row(out, "sized: quick")[-1] == "1"
    assert "helper" not in out
    assert "not measured: bench_broken.py, bench_quiet.py" in out
    # the last lines name every miss
    tail = out.split("missed its goal (3):", 1)[1].splitlines()
    assert [line.split(" = ")[0].strip() for line in tail if line.strip()] == [
        "lines: render_worst_ms", "sized: mm_apply_per_second", "whole: largest_state_bytes_5_players",
    ]


def test_run_all_full_and_only(tmp_path):
    out = run_stand_ins(tmp_path, "--full", "--only", "sized")
    assert out.startswith("full run")
    assert row(out, "sized: quick")[-1] == "0"
    assert "lines" not in out and "broken" not in out
    assert "sized: mm_apply_per_second = 4,000/s (goal ≥ 5,000/s)" in out


def test_run_all_exits_0_only_when_every_goal_holds(tmp_path):
    """Only the stand-in whose figures all meet their goals: exit 0, nothing named."""
    out = run_stand_ins(tmp_path, "--only", "whole", status=1)  # 30 KiB > 20 KiB
    assert "whole: largest_state_bytes_5_players" in out.split("missed its goal", 1)[1]
    good = tmp_path / "good"
    good.mkdir()
    (good / "bench_fine.py").write_text('print(\'{"apply_per_second": 6000, "games": 3}\')\n', encoding="utf-8")
    ok = subprocess.run(
        [sys.executable, str(BENCH / "run_all.py"), "--dir", str(good), "--timeout", "60"],
        capture_output=True, text=True, cwd=tmp_path, timeout=120,
    )
    assert ok.returncode == 0, ok.stdout
    assert "missed" not in ok.stdout and "not measured" not in ok.stdout


def test_scale_figures_have_goals_and_units():
    """bench_scale's start-up peak and the act p99 growth (N games vs 10) reach the table."""
    assert run_all.goal_for("act_p99_growth_pct").ok(19.9)
    assert not run_all.goal_for("act_p99_growth_pct").ok(20.1)
    assert run_all.measured_text("act_p99_growth_pct", 12.5) == "12.5 %"
    assert not run_all.goal_for("peak_rss_start_mib").ok(301)



def test_run_all_grades_the_median_of_repeated_runs(tmp_path):
    """--repeat 3: each figure is the middle of its 3 values. A stand-in that prints
    200 ms, 20 ms, 90 ms on its 3 runs is graded on 90 ms (≤ 100 ms: ok), and says so;
    run once, its 200 ms misses."""
    d = tmp_path / "rep"
    d.mkdir()
    (d / "bench_swing.py").write_text(textwrap.dedent("""
        import json, pathlib
        n = pathlib.Path(__file__).with_name("count")
        i = int(n.read_text()) if n.exists() else 0
        n.write_text(str(i + 1))
        print(json.dumps({"render_worst_ms": [200, 20, 90][i % 3], "games": 3}))
    """), encoding="utf-8")

    def run(*extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, str(BENCH / "run_all.py"), "--dir", str(d), "--timeout", "60", *extra],
            capture_output=True, text=True, cwd=tmp_path, timeout=120,
        )

    three = run("--repeat", "3")
    assert three.returncode == 0, three.stdout
    assert row(three.stdout, "swing (median of 3): render_worst_ms")[-3:] == ["90", "ms", "ok"]
    once = run("--repeat", "1")  # its 4th run: 200 ms again
    assert once.returncode == 1
    assert row(once.stdout, "swing: render_worst_ms")[-3:] == ["200", "ms", "MISSED"]
    grades = run_all.median_of([
        run_all.Result("bench_swing.py", [], 1.0, "ok", {"render_worst_ms": v, "note": "x"}) for v in (200, 20, 90)
    ])
    assert grades.figures == {"render_worst_ms": 90, "note": "x"}
    failed = run_all.median_of([run_all.Result("b.py", [], 1.0, "ok", {"x": 1}),
                                run_all.Result("b.py", [], 1.0, "FAILED (exit 1)")])
    assert failed.status == "FAILED (exit 1)"


def test_the_noisy_benchmarks_are_graded_on_3_runs():
    """make bench runs the load, App.act and scale benchmarks 3 times (issue 25)."""
    assert run_all.REPEATS["bench_load.py"] == 3 and run_all.REPEATS["bench_app.py"] == 3
    assert run_all.REPEATS["bench_scale.py"] == 3
