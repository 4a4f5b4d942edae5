"""Suite-wide hooks.

- The live table's browser tests (the ``browser`` marker,
  :data:`tests.table_support.needs_chromium`) are skipped where no Chromium is installed,
  loudly (the reason names the browser and how to install it, and the run ends with a
  banner counting them), and fail in CI instead (:func:`tests.table_support.browser_verdict`).
- A module whose tests share a module-scoped fixture keeps them on one pytest-xdist
  worker (``xdist_group``, with ``--dist loadgroup`` as ``make test`` runs): the fixture
  is built once, not once per worker that draws one of its tests (issue 38).
- The tests of :data:`SLOW` (whole games through the fake Discord, the benchmarks' smoke
  runs, exhaustive enumerations) are marked ``slow``: ``make test-quick`` leaves them out
  for the edit loop; ``make test`` runs everything."""

from __future__ import annotations

import gc
import os
from pathlib import Path
from typing import Any

import pytest

from tests.pg_support import NO_POSTGRES, pg_test_url
from tests.table_support import INSTALL, browser_verdict, chromium_path, in_ci

# The picture workers of the bots the tests start draw at the tests' own priority: niced
# to 19 (as the bot runs them) behind six busy pytest workers, they starved, and whole games
# waited on their pictures (issue 38). What is drawn is the same.
os.environ.setdefault("BOARDROOM_PICTURE_NICE", "0")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", f"browser: drives the live table in headless Chromium (skipped without it; `{INSTALL}`)"
    )


# Modules whose every test is slow: whole games played through the fake Discord (paced), a
# round or a decision played in the table's real browser,
# the outbox delivered late and out of order over many seeds, the benchmarks run at their
# smallest sizes, exhaustive plan enumerations and whole-game sweeps (about three quarters
# of the suite's time; make test-quick leaves them out).
SLOW = frozenset({
    "test_aoa_discord", "test_aoa_draft_words", "test_benchmarks", "test_channel_posts", "test_demo", "test_discord_e2e",
    "test_discord_faults", "test_mm_discord", "test_pads", "test_picture_workers", "test_pictures_orphans",
    "test_plan_enumeration", "test_plan_enumeration_rules", "test_playtest_aoa", "test_playtest_fit",
    "test_playtest_mm", "test_prompts_reordered", "test_prompts_whole_games", "test_render_update",
    "test_runtime_loop", "test_si_select_fit", "test_pg_processes", "test_pg_demo", "test_table_decide",
    "test_table_gestures", "test_table_phone", "test_table_browser", "test_table_games", "test_svg_table",
    "test_table_si_lay", "test_requests_per_action",
    "test_secrecy_differential", "test_si_read_identity", "test_status_deadlines", "test_su_bot_e2e",
    "test_upgrade", "test_ux_e2e", "test_words",
})
WIDE = ("module", "package", "session")


def shares_a_module_fixture(item: pytest.Item) -> bool:
    """Whether ``item`` uses a fixture of wider than function scope defined in its own module."""
    info = getattr(item, "_fixtureinfo", None)
    module = getattr(item, "module", None)
    if info is None or module is None:
        return False
    for defs in info.name2fixturedefs.values():
        for fixturedef in defs:
            if fixturedef.scope in WIDE and getattr(fixturedef.func, "__module__", None) == module.__name__:
                return True
    return False


# The test processes' garbage collector (issue 38): each worker holds every test module, the
# engines, discord.py and the renderers (about 300,000 objects), and CPython's default
# thresholds walked them all in each full collection, dozens of times a worker, and in the
# imports of the collection too: 9 % of a worker's CPU went to the collector. So the
# collector waits while the suite is imported and collected; then what is alive is frozen
# (never walked again, as bot.runtime.tune_gc does for the bot) and the young generation
# is collected every GC_THRESHOLD[0] allocations instead of 700. Cycles are still
# collected, only less often. (3 whole-game modules in one process: the collector's time
# 3.5 s -> 1.0 s of 36-38 s.)
GC_THRESHOLD = (50_000, 20, 100)
gc.disable()


def pytest_collection_finish(session: pytest.Session) -> None:
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLD)
    gc.enable()


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """``make test-quick`` (``-m "not slow"``) does not even import the slow modules: each of
    its workers collects the suite (0.7 s of CPU less per worker)."""
    if collection_path.suffix == ".py" and collection_path.stem in SLOW and config.getoption("markexpr") == "not slow":
        return True
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        module = getattr(item, "module", None)
        name = module.__name__.rpartition(".")[2] if module is not None else ""
        if name in SLOW:
            item.add_marker(pytest.mark.slow)
        if shares_a_module_fixture(item):
            item.add_marker(pytest.mark.xdist_group(name))
    # the long tests first (a stable sort: each module's order kept): the workers start on
    # the whole games and the browser, and the many short tests fill in around them, so
    # that no long test starts last and runs alone at the end (issue 38)
    items.sort(key=lambda item: 0 if item.get_closest_marker("slow") or item.get_closest_marker("browser") else 1)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("postgres") is not None and not pg_test_url():
        if in_ci():  # CI installs PostgreSQL (.ci/run): there, no database is a failure
            pytest.fail(NO_POSTGRES, pytrace=False)
        pytest.skip(NO_POSTGRES)
    if item.get_closest_marker("browser") is None:
        return
    verdict = browser_verdict(chromium_path(), in_ci())
    if verdict is None:
        return
    what, reason = verdict
    if what == "fail":
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason)


def browser_skips(stats: dict[str, list[Any]], why: str = INSTALL) -> int:
    """How many reports in ``stats`` are tests skipped for ``why`` (by default: browser
    tests for want of Chromium)."""
    n = 0
    for report in stats.get("skipped", []):
        longrepr = getattr(report, "longrepr", None)
        text = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr)
        n += why in str(text)
    return n


def pytest_terminal_summary(terminalreporter: Any) -> None:
    skipped = browser_skips(terminalreporter.stats)
    if skipped:
        terminalreporter.write_sep(
            "!", f"{skipped} browser test(s) of the live table SKIPPED: no Chromium installed ({INSTALL})",
            red=True, bold=True,
        )
    skipped = browser_skips(terminalreporter.stats, NO_POSTGRES)
    if skipped:
        terminalreporter.write_sep("!", f"{skipped} PostgreSQL test(s) SKIPPED: {NO_POSTGRES}", red=True, bold=True)
