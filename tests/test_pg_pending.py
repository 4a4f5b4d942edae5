"""``make test`` starts its throwaway PostgreSQL cluster while pytest starts (issue 38):
the postgres tests find its URL through ``BOARDROOM_TEST_DB_PENDING`` (tests/pg_support.py)."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from tests import pg_support


@pytest.fixture
def pending(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("BOARDROOM_TEST_DB", "")  # so that the URL the test finds is undone after
    monkeypatch.delenv("BOARDROOM_TEST_DB")
    monkeypatch.setenv(pg_support.PENDING, str(tmp_path))
    return tmp_path


def test_the_url_is_waited_for_until_the_start_ends_then_kept(pending: Path) -> None:
    def start() -> None:
        (pending / "url").write_text("postgresql://postgres@127.0.0.1:1/boardroom_test\n", encoding="utf-8")
        (pending / "started").touch()

    timer = threading.Timer(0.3, start)
    timer.start()
    try:
        assert pg_support.pg_test_url() == "postgresql://postgres@127.0.0.1:1/boardroom_test"
    finally:
        timer.join()
    assert os.environ["BOARDROOM_TEST_DB"] == "postgresql://postgres@127.0.0.1:1/boardroom_test"


def test_a_start_that_failed_gives_no_url(pending: Path) -> None:
    (pending / "started").touch()
    assert pg_support.pg_test_url() == ""
    assert "BOARDROOM_TEST_DB" not in os.environ


def test_a_url_set_by_hand_wins(pending: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOARDROOM_TEST_DB", "postgresql://me@db/x")
    assert pg_support.pg_test_url() == "postgresql://me@db/x"
