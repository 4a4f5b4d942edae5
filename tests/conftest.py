"""Suite-wide hooks: the live table's browser tests (the ``browser`` marker,
:data:`tests.table_support.needs_chromium`) are skipped where no Chromium is installed,
loudly (the reason names the browser and how to install it, and the run ends with a
banner counting them), and fail in CI instead (:func:`tests.table_support.browser_verdict`)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.table_support import INSTALL, browser_verdict, chromium_path, in_ci


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", f"browser: drives the live table in headless Chromium (skipped without it; `{INSTALL}`)"
    )


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("browser") is None:
        return
    verdict = browser_verdict(chromium_path(), in_ci())
    if verdict is None:
        return
    what, reason = verdict
    if what == "fail":
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason)


def browser_skips(stats: dict[str, list[Any]]) -> int:
    """How many reports in ``stats`` are browser tests skipped for want of Chromium."""
    n = 0
    for report in stats.get("skipped", []):
        longrepr = getattr(report, "longrepr", None)
        text = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr)
        n += INSTALL in str(text)
    return n


def pytest_terminal_summary(terminalreporter: Any) -> None:
    skipped = browser_skips(terminalreporter.stats)
    if skipped:
        terminalreporter.write_sep(
            "!", f"{skipped} browser test(s) of the live table SKIPPED: no Chromium installed ({INSTALL})",
            red=True, bold=True,
        )
