"""Shared pytest settings.

Under pytest-xdist (``make test`` runs ``-n 4 --dist loadgroup``) the tests are spread
one by one over the workers, except the files below: each builds costly data once in a
module fixture (whole games played, views rendered), so their tests stay together on
one worker instead of building it once per worker."""

from __future__ import annotations

import pytest

KEEP_TOGETHER = {
    "test_mm_bot.py",
    "test_plan_enumeration.py",
    "test_render_compact.py",
    "test_render_mm.py",
    "test_render_smartphone.py",
    "test_render_update.py",
}


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.name in KEEP_TOGETHER:
            item.add_marker(pytest.mark.xdist_group(item.path.stem))
