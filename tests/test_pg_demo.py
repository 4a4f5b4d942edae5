"""``boardroom demo`` on PostgreSQL (issue 37), as processes on the database of
``BOARDROOM_TEST_DB``: killed and resumed it ends as on SQLite; two demos started at once
on one database play the same game to the end of one process alone, each move stored once."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

from bot.storage import Storage
from tests.pg_support import fresh_database

pytestmark = pytest.mark.postgres
ROOT = Path(__file__).resolve().parent.parent


def demo_cmd(db: str) -> list[str]:
    return [sys.executable, "-m", "bot.cli", "demo", "--game", "smartphone-inc", "--players", "2", "--seed", "3", "--db", db]


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}


def result_of(out: str) -> str:
    last = out.strip().splitlines()[-1]
    json.loads(last)
    return last


async def actions_of(url: str) -> list[tuple[int, int]]:
    async with await psycopg.AsyncConnection.connect(url) as conn:
        cur = await conn.execute("SELECT game_id, seq FROM actions ORDER BY game_id, seq")
        return list(await cur.fetchall())


async def test_a_demo_on_postgresql_killed_and_resumed_ends_as_on_sqlite(tmp_path: Path) -> None:
    whole = subprocess.run(demo_cmd(str(tmp_path / "whole.db")), capture_output=True, text=True, env=env(), timeout=300)
    assert whole.returncode == 0, whole.stderr
    want = result_of(whole.stdout)
    async with fresh_database() as url:
        proc = subprocess.Popen(demo_cmd(url) + ["--pace", "0.02"], stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True, env=env())
        assert proc.stdout is not None
        phases = 0
        for line in proc.stdout:
            if line.startswith("Round "):
                phases += 1
                if phases == 12:  # mid-game
                    break
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        assert phases == 12 and await actions_of(url)
        resumed = subprocess.run(demo_cmd(url), capture_output=True, text=True, env=env(), timeout=300)
        assert resumed.returncode == 0, resumed.stderr
        assert resumed.stdout.startswith("resuming") and result_of(resumed.stdout) == want


async def test_two_demos_at_once_on_one_database_play_one_game_once(tmp_path: Path) -> None:
    alone = subprocess.run(demo_cmd(str(tmp_path / "alone.db")), capture_output=True, text=True, env=env(), timeout=300)
    assert alone.returncode == 0, alone.stderr
    want = result_of(alone.stdout)
    async with fresh_database() as url:
        await (await Storage.open(url)).close()  # migrated once: the two start on the same schema
        procs = [subprocess.Popen(demo_cmd(url), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env())
                 for _ in range(2)]
        outs = [p.communicate(timeout=300) for p in procs]
        for p, (out, err) in zip(procs, outs, strict=True):
            assert p.returncode == 0, err[-2000:]
            assert result_of(out) == want
        rows = await actions_of(url)
    games = {gid for gid, _seq in rows}
    assert len(games) == 1
    assert [seq for _gid, seq in rows] == list(range(1, len(rows) + 1))  # each move once, none missing
