"""The benchmarks still run (smallest sizes): a broken benchmark is found here, not by
the next person who wants a figure. No timing is asserted."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    "args",
    [
        ["bench_engine.py", "--games", "2"],
        ["bench_mm.py", "--games", "2"],
        ["bench_plans.py", "--runs", "1"],
        ["bench_render.py", "--runs", "1"],
        ["bench_app.py", "--quick", "--startup-games", "5"],
    ],
)
def test_benchmark_runs(args, tmp_path):
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / args[0]), *args[1:]],
        capture_output=True, text=True, cwd=tmp_path, timeout=600,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip()
