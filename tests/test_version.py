"""``boardroom --version`` and the bot's first log line say which boardroom runs on
which discord.py, Pillow, aiosqlite, APScheduler and Python: the locked versions."""

from __future__ import annotations

import logging
import platform
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

from bot.version import version_line
from tests.discord_support import running
from tests.fake_discord import FakeDiscord
from tests.test_lock import lock

ROOT = Path(__file__).resolve().parent.parent


def expected_line() -> str:
    """The line built from pyproject.toml and the dev lock, not from what is installed."""
    pins = lock("dev").pins
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    libs = ", ".join(f"{shown} {pins[key].version}" for shown, key in (
        ("discord.py", "discord-py"), ("Pillow", "pillow"), ("aiosqlite", "aiosqlite"),
        ("APScheduler", "apscheduler")))
    return f"boardroom {version} ({libs}, Python {platform.python_version()})"


def test_version_line_names_the_locked_versions() -> None:
    assert version_line() == expected_line()


def test_boardroom_version_prints_the_line() -> None:
    out = subprocess.run([sys.executable, "-m", "bot.cli", "--version"], capture_output=True,
                         text=True, env={"COLUMNS": "30", "PATH": ""}, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout == expected_line() + "\n"  # one line, never wrapped


async def test_the_bot_logs_the_line_at_start(tmp_path: Path, caplog: Any) -> None:
    caplog.set_level(logging.INFO, logger="boardroom")
    async with FakeDiscord() as fake:
        async with running(fake, str(tmp_path / "v.db"), renderer=None):
            pass
    started = [r.getMessage() for r in caplog.records if r.name.startswith("boardroom")]
    assert started and started[0] == expected_line()
