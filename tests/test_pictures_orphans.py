"""A bot killed with SIGKILL leaves none of its picture workers behind (issue 21).

The bot's picture workers are child processes of its own (``bot.picture_workers``);
the bot's own clean-up (``Painter.close``) never runs when it is killed. The test
starts a bot-like process that draws a real board picture in the painter's worker
processes, kills it with SIGKILL and checks that every process it had started is
gone within a few seconds.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc (Linux)")

BOT = textwrap.dedent(
    """
    import asyncio, os, sys, time

    from bot import pictures
    import render
    from engine import get_game

    async def main():
        painter = pictures.PAINTER
        assert painter.mode == "process"
        painter.warm_up()  # what the bot does after its start-up catch-up: both workers start
        game = get_game("smartphone-inc")
        state = game.setup(["a", "b", "c"], 1, {})
        png = await painter.png(render.draw, "smartphone-inc", game.view(state, "a"))
        assert png and png[:4] == b"\\x89PNG"
        print("drew", len(png), flush=True)
        time.sleep(600)  # a bot at work, until it is killed

    if __name__ == "__main__":
        asyncio.run(main())
    """
)


def _state(pid: int) -> str | None:
    """The process's state letter, None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text.rsplit(")", 1)[-1].split()[0]


def _children() -> dict[int, int]:
    out = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[-1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            out[int(entry.name)] = ppid
    return out


def _descendants(root: int) -> set[int]:
    parents = _children()
    found: set[int] = set()
    frontier = {root}
    while frontier:
        frontier = {pid for pid, ppid in parents.items() if ppid in frontier} - found
        found |= frontier
    return found


def test_killed_bot_leaves_no_worker_process(tmp_path: Path) -> None:
    script = tmp_path / "bot_like.py"
    script.write_text(BOT)
    env = dict(os.environ, BOARDROOM_PICTURES="process", PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    bot = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, env=env, cwd=tmp_path)
    try:
        assert bot.stdout is not None
        line = bot.stdout.readline().decode()
        assert line.startswith("drew "), line
        deadline = time.monotonic() + 30
        while len(_descendants(bot.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)  # the second worker may still be starting
        spawned = _descendants(bot.pid)
        assert len(spawned) >= 2, spawned  # the 2 workers
        bot.send_signal(signal.SIGKILL)
        bot.wait(10)
        deadline = time.monotonic() + 5
        alive = spawned
        while alive and time.monotonic() < deadline:
            time.sleep(0.1)
            alive = {pid for pid in alive if _state(pid) not in (None, "Z")}
        assert not alive, f"processes left behind by the killed bot: {sorted(alive)}"
        # and none of them holds the dead bot's stdout: the pipe reaches its end
        assert bot.stdout.read() == b""
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()
        for pid in _descendants(bot.pid) | locals().get("spawned", set()):
            if _state(pid) not in (None, "Z"):
                os.kill(pid, signal.SIGKILL)
