"""Tests against a real PostgreSQL (issue 37): the database named by
``BOARDROOM_TEST_DB`` (``make test`` starts a throwaway cluster and sets it:
scripts/pg_cluster.sh). Each test gets a schema of its own in it (dropped after), so
the tests of several workers never meet. Without ``BOARDROOM_TEST_DB`` the ``postgres``
tests are skipped loudly (a banner counts them), and fail in CI instead."""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import quote

import psycopg

NO_POSTGRES = "no PostgreSQL: BOARDROOM_TEST_DB is not set (make test starts one where PostgreSQL is installed)"


PENDING = "BOARDROOM_TEST_DB_PENDING"
PENDING_WAIT_S = 120.0  # a guard against a start that never ends, not a measure


def pg_test_url() -> str:
    """``BOARDROOM_TEST_DB``; else, while ``make test``'s throwaway cluster is starting
    beside pytest (``BOARDROOM_TEST_DB_PENDING`` names the folder where its start writes
    ``url``, then ``started``), its URL once it is up, or "" if it could not start. The
    URL found is put in the environment, for this process and what it starts."""
    url = os.environ.get("BOARDROOM_TEST_DB", "").strip()
    pending = os.environ.get(PENDING, "").strip()
    if url or not pending:
        return url
    folder = Path(pending)
    deadline = time.monotonic() + PENDING_WAIT_S
    while not (folder / "started").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        url = (folder / "url").read_text(encoding="utf-8").strip()
    except OSError:
        url = ""
    if url:
        os.environ["BOARDROOM_TEST_DB"] = url
    return url


def with_schema(url: str, schema: str) -> str:
    """The URL whose connections work in ``schema`` (their search_path)."""
    return url + ("&" if "?" in url else "?") + "options=" + quote(f"-csearch_path={schema}")


@asynccontextmanager
async def fresh_database() -> AsyncIterator[str]:
    """A URL of an empty schema of the test database, dropped afterwards."""
    url = pg_test_url()
    schema = f"t_{secrets.token_hex(6)}"
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        await conn.execute(f"CREATE SCHEMA {schema}")
    try:
        yield with_schema(url, schema)
    finally:
        async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
            await conn.execute(f"DROP SCHEMA {schema} CASCADE")
