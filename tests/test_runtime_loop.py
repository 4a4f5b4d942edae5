"""The bot's event loop (``bot.runtime.event_loop``, issue 25): uvloop's where installed
(a dependency everywhere but Windows), asyncio's with ``BOARDROOM_LOOP=asyncio`` or
without uvloop; ``boardroom run`` starts discord.py on it; and a game through the fake
Discord plays its first round on it as on asyncio's loop (the demo in a subprocess, with its
picture workers, runs on it too: ``tests/test_demo.py``)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest

from bot import cli
from bot.runtime import LOOP_ENV, event_loop
from tests.app_support import fake_bot_module

SECRET = "MTIz.not-a-real-token.abc"


async def _loop_module() -> str:
    return type(asyncio.get_running_loop()).__module__


def test_the_bot_runs_on_uvloop_where_it_is_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(LOOP_ENV, raising=False)
    if sys.platform == "win32":
        pytest.skip("uvloop does not build on Windows: asyncio's loop there")
    import uvloop  # noqa: F401  (a dependency of the bot on every other platform)

    before = asyncio.get_event_loop_policy()
    with event_loop() as name:
        assert name == "uvloop"
        assert asyncio.run(_loop_module()).startswith("uvloop")
    assert asyncio.get_event_loop_policy() is before  # restored on the way out
    assert asyncio.run(_loop_module()).startswith("asyncio")


def test_boardroom_loop_asyncio_keeps_asyncios_own_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(LOOP_ENV, " AsyncIO ")
    with event_loop() as name:
        assert name == "asyncio"
        assert asyncio.run(_loop_module()).startswith("asyncio")


def test_without_uvloop_the_loop_is_asyncios(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(LOOP_ENV, raising=False)
    monkeypatch.setitem(sys.modules, "uvloop", None)  # import uvloop -> ImportError
    with event_loop() as name:
        assert name == "asyncio"
        assert asyncio.run(_loop_module()).startswith("asyncio")


def test_boardroom_run_starts_discord_on_the_bots_loop(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    if sys.platform == "win32":
        pytest.skip("uvloop does not build on Windows")
    seen: list[str] = []

    class FakeClient:
        def run(self, token: str, **kw: object) -> None:  # discord.py's Client.run: asyncio.run
            seen.append(asyncio.run(_loop_module()))

    fake_bot_module(monkeypatch, lambda db_path, **kw: FakeClient())
    monkeypatch.delenv(LOOP_ENV, raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", SECRET)
    monkeypatch.setenv("BOARDROOM_DB", str(tmp_path / "bot.db"))
    monkeypatch.chdir(tmp_path)
    assert cli.main(["run"]) == 0
    assert len(seen) == 1 and seen[0].startswith("uvloop"), seen
    monkeypatch.setenv(LOOP_ENV, "asyncio")
    assert cli.main(["run"]) == 0
    assert seen[1].startswith("asyncio"), seen


def test_a_round_through_the_fake_discord_on_uvloop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A two-player game with Steve through the fake Discord (lobby, Add AI, DM planners,
    the reveal, every turn of round 1 by buttons, to round 2's planners; no error, no
    unknown route, no internal id), on the bot's loop instead of asyncio's. One round
    takes every path of the bot a round has (the same path the whole games of
    ``tests/test_discord_e2e.py`` take five times, on asyncio's loop)."""
    if sys.platform == "win32":
        pytest.skip("uvloop does not build on Windows")
    from tests.discord_support import SpyRenderer, running
    from tests.fake_discord import FakeDiscord, message_text
    from tests.test_discord_e2e import build_plan, new_game, play_turns, public_with, seal
    from tests.test_words import assert_plain_words

    monkeypatch.delenv(LOOP_ENV, raising=False)

    async def play() -> str:
        async with FakeDiscord() as fake:
            ann, bob = fake.add_member("ann"), fake.add_member("bob")
            async with running(fake, str(tmp_path / "uvloop.db"), renderer=SpyRenderer()) as bot:
                lobby = await new_game(fake, ann, [bob])
                ix = await fake.click(ann, lobby, "Add AI")
                await fake.click(ann, ix.original, "br:ai:", values=["steve"])
                await fake.click(ann, lobby, "Start")

                def planner(u: dict[str, Any], rnd: int) -> Any:
                    return next((m for m in reversed(fake.dm_messages(u)) if f"round {rnd} (game" in message_text(m)), None)

                for u in (ann, bob):
                    msg = await fake.wait_for(lambda u=u: planner(u, 1), what="a round 1 planner")
                    assert (await bot.app.prompt(1, u["username"]))["type"] == "plan"
                    msg = await build_plan(fake, u, msg)
                    assert "Plan sealed" in (await seal(fake, u, msg)).all_text()
                await public_with(fake, "reveals:")
                await play_turns(fake, [ann, bob], until="Round 2 · Planning")
                for u in (ann, bob):
                    await fake.wait_for(lambda u=u: planner(u, 2), what="a round 2 planner")
                everything = fake.public_messages() + fake.dm_messages(ann) + fake.dm_messages(bob)
                assert not any("Sorry" in message_text(m) or "went wrong" in message_text(m) for m in everything)
                assert (await bot.app.state(1))["round"] == 2
            fake.assert_clean()
            assert_plain_words(fake)
        return await _loop_module()

    with event_loop() as name:
        assert name == "uvloop"
        ran_on: Any = asyncio.run(play())
    assert ran_on.startswith("uvloop")
