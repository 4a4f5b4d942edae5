"""Issue 34 §3: on a machine without Chromium the test command passes, the browser tests
skipped with a reason that names the browser and how to install it, and a banner at the
end counting them; in CI (``CI`` set) the same tests fail instead of skipping. Run as the
README's command would, in a child pytest with no Chromium on its PATH."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.table_support import INSTALL, browser_verdict, in_ci

ROOT = Path(__file__).resolve().parent.parent
# a browser module (the lightest: each child pytest imports what it collects) and a
# benchmark's smoke run marked through pytest.param
BROWSER_TESTS = ["tests/test_table_chromium.py", "tests/test_benchmarks.py::test_benchmark_runs[bench_table]"]


def run_without_chromium(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    bare = tmp_path / "bin"  # a PATH where no browser is found
    bare.mkdir(exist_ok=True)
    child = {k: v for k, v in os.environ.items() if k not in ("CI", "BOARDROOM_CHROMIUM", "PYTEST_XDIST_WORKER")}
    child.update(PATH=str(bare), PYTHONPATH=str(ROOT), **env)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-n", "0", "-p", "no:cacheprovider", *BROWSER_TESTS],
        capture_output=True, text=True, cwd=ROOT, env=child, timeout=300,
    )


def test_without_chromium_the_browser_tests_skip_loudly(tmp_path: Path) -> None:
    out = run_without_chromium(tmp_path)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    assert "3 skipped" in out.stdout and "passed" not in out.stdout and "failed" not in out.stdout, out.stdout
    skips = [line for line in out.stdout.splitlines() if line.startswith("SKIPPED")]
    assert len(skips) == 1 and skips[0].startswith("SKIPPED [3] "), skips  # one reason for the three
    assert f"no Chromium browser installed: `{INSTALL}`" in skips[0], skips
    assert "3 browser test(s) of the live table SKIPPED: no Chromium installed (apt-get install chromium)" in out.stdout


def test_in_ci_a_missing_chromium_fails_the_browser_tests(tmp_path: Path) -> None:
    out = run_without_chromium(tmp_path, CI="true")
    assert out.returncode == 1, out.stdout[-3000:]
    assert "3 error" in out.stdout and "skipped" not in out.stdout, out.stdout
    assert out.stdout.count("CI: no Chromium browser installed") >= 3, out.stdout


@pytest.mark.parametrize(
    ("value", "ci"),
    [("", False), ("0", False), ("false", False), ("No", False), ("true", True), ("1", True), ("yes", True)],
)
def test_what_counts_as_ci(value: str, ci: bool) -> None:
    assert in_ci({"CI": value}) is ci
    assert in_ci({}) is False


def test_a_browser_test_runs_where_chromium_is() -> None:
    assert browser_verdict("/usr/bin/chromium", ci=False) is None
    assert browser_verdict("/usr/bin/chromium", ci=True) is None
    skip, fail = browser_verdict(None, ci=False), browser_verdict(None, ci=True)
    assert skip is not None and skip[0] == "skip" and INSTALL in skip[1]
    assert fail is not None and fail[0] == "fail" and INSTALL in fail[1]
