"""The suite's own layout (tests/conftest.py): the quick run's slow modules exist, and a
module fixture keeps the tests that share it on one pytest-xdist worker."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SLOW

HERE = Path(__file__).resolve().parent


def test_every_slow_module_exists() -> None:
    assert sorted(n for n in SLOW if not (HERE / f"{n}.py").exists()) == []


def test_the_quick_run_leaves_out_the_slow_modules(request: pytest.FixtureRequest) -> None:
    assert request.node.get_closest_marker("slow") is None  # this module is not slow
    assert "test_discord_e2e" in SLOW and "test_suite_layout" not in SLOW


@pytest.fixture(scope="module")
def built_once() -> list[int]:
    return []


def test_a_module_fixture_groups_its_tests(request: pytest.FixtureRequest, built_once: list[int]) -> None:
    group = request.node.get_closest_marker("xdist_group")
    assert group is not None and group.args == ("test_suite_layout",)


def test_a_test_without_it_goes_anywhere(request: pytest.FixtureRequest) -> None:
    assert request.node.get_closest_marker("xdist_group") is None
