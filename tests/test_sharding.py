"""Sharding (issue 9): ``boardroom run`` uses discord.py's AutoShardedBot when the bot is
in more than 2,000 servers or when ``BOARDROOM_SHARDS`` is set. No real Discord: the
server count comes from the fake Discord's application info."""

from __future__ import annotations

import sys
import types
from pathlib import Path
from typing import Any

import pytest
from discord.ext import commands

from bot import cli
from bot.config import SHARD_ABOVE_GUILDS, Config, ConfigError, parse_shards, shards_for
from bot.delivery import Budget, global_share
from bot.discord_bot import BoardroomBot, ShardedBoardroomBot, approximate_guild_count, create_bot
from tests.discord_support import TOKEN, running
from tests.fake_discord import Failure, FakeDiscord


def test_boardroom_shards_is_parsed() -> None:
    assert parse_shards("") is None and parse_shards("  ") is None
    assert parse_shards("auto") == "auto" and parse_shards(" AUTO ") == "auto"
    assert parse_shards("3") == 3
    for bad in ("0", "-2", "two", "1.5", "5000"):
        with pytest.raises(ConfigError, match="BOARDROOM_SHARDS"):
            parse_shards(bad)
    assert Config.from_env({"DISCORD_TOKEN": TOKEN}).shards is None
    c = Config.from_env({"DISCORD_TOKEN": TOKEN, "BOARDROOM_SHARDS": "4"})
    assert c.shards == 4 and "shards=4" in str(c) and TOKEN not in str(c)
    with pytest.raises(ConfigError, match="BOARDROOM_SHARDS"):
        Config.from_env({"DISCORD_TOKEN": TOKEN, "BOARDROOM_SHARDS": "many"})


def test_sharded_above_two_thousand_servers_or_when_asked() -> None:
    assert SHARD_ABOVE_GUILDS == 2000
    assert shards_for(None, 2000) is None
    assert shards_for(None, 2001) == "auto"
    assert shards_for(None, None) is None  # unknown: one connection, as before
    assert shards_for(2, 5) == 2 and shards_for("auto", 1) == "auto"  # the setting wins


async def test_create_bot_picks_the_sharded_class(tmp_path: Path) -> None:
    plain = create_bot(db_path=str(tmp_path / "a.db"))
    assert type(plain) is BoardroomBot and not isinstance(plain, commands.AutoShardedBot)
    auto = create_bot(db_path=str(tmp_path / "b.db"), shards="auto")
    assert isinstance(auto, ShardedBoardroomBot) and isinstance(auto, commands.AutoShardedBot)
    assert isinstance(auto, BoardroomBot) and auto.shard_count is None  # Discord recommends
    three = create_bot(db_path=str(tmp_path / "c.db"), shards=3)
    assert isinstance(three, commands.AutoShardedBot) and three.shard_count == 3
    await plain.close()  # (discord.py cannot close a sharded client that never logged in)


async def test_the_server_count_is_asked_of_discord() -> None:
    async with FakeDiscord() as fake:
        fake.approximate_guild_count = 2500
        assert await approximate_guild_count(TOKEN) == 2500
        assert shards_for(None, await approximate_guild_count(TOKEN)) == "auto"
        fake.approximate_guild_count = 12
        assert shards_for(None, await approximate_guild_count(TOKEN)) is None
        fake.fail("GET", "/users/@me", Failure(401, 0, "401: Unauthorized"))
        assert await approximate_guild_count(TOKEN) is None  # a refused login: unknown, no crash


async def test_a_sharded_bot_starts_and_plays(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        async with running(fake, str(tmp_path / "s.db"), shards=1, sync_commands=False) as bot:
            assert isinstance(bot, commands.AutoShardedBot) and bot.shard_count == 1
            assert bot.app is not None and bot.reminders is not None
            assert bot.get_guild(int(fake.guild_id)) is not None


@pytest.mark.parametrize(
    ("env", "guilds", "expected"),
    [({}, 1, None), ({}, 2001, "auto"), ({"BOARDROOM_SHARDS": "2"}, None, 2), ({"BOARDROOM_SHARDS": "auto"}, None, "auto")],
)
def test_boardroom_run_shards(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, env: dict[str, str], guilds: int | None, expected: Any
) -> None:
    calls: dict[str, Any] = {}
    asked: list[str] = []

    class FakeClient:
        def run(self, token: str, **kw: object) -> None:
            calls["token"] = token

    def fake_create_bot(db_path: str, **kw: object) -> FakeClient:
        calls.update(kw)
        return FakeClient()

    async def count(token: str) -> int | None:
        asked.append(token)
        return guilds

    fake = types.ModuleType("bot.discord_bot")
    fake.create_bot = fake_create_bot  # type: ignore[attr-defined]
    fake.approximate_guild_count = count  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bot.discord_bot", fake)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("BOARDROOM_DB", str(tmp_path / "bot.db"))
    monkeypatch.delenv("BOARDROOM_SHARDS", raising=False)
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    assert cli.main(["run"]) == 0
    assert calls.get("shards") == expected
    assert asked == ([] if env else [TOKEN])  # Discord is asked only when the setting is unset


def test_a_process_runs_its_range_of_shards(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Issue 37: ``boardroom run --shard-count 16 --shards 0-3`` (or BOARDROOM_SHARDS and
    BOARDROOM_SHARD_IDS) runs shards 0 to 3 of 16 here, on discord.py's AutoShardedClient
    (``shard_ids``); a range without a number of shards, or beyond it, is refused."""
    calls: dict[str, Any] = {}

    class FakeClient:
        def run(self, token: str, **kw: object) -> None:
            calls["ran"] = True

    def fake_create_bot(db_path: str, **kw: object) -> FakeClient:
        calls.update(kw, db_path=db_path)
        return FakeClient()

    async def count(token: str) -> int | None:
        return 1

    fake = types.ModuleType("bot.discord_bot")
    fake.create_bot = fake_create_bot  # type: ignore[attr-defined]
    fake.approximate_guild_count = count  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bot.discord_bot", fake)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("BOARDROOM_DB", str(tmp_path / "bot.db"))
    for name in ("BOARDROOM_SHARDS", "BOARDROOM_SHARD_IDS"):
        monkeypatch.delenv(name, raising=False)
    assert cli.main(["run", "--shard-count", "16", "--shards", "0-3", "--db", str(tmp_path / "other.db")]) == 0
    assert (calls["shards"], calls["shard_ids"], calls["db_path"]) == (16, [0, 1, 2, 3], str(tmp_path / "other.db"))
    calls.clear()
    monkeypatch.setenv("BOARDROOM_SHARDS", "8")
    monkeypatch.setenv("BOARDROOM_SHARD_IDS", "5,7")
    assert cli.main(["run"]) == 0 and (calls["shards"], calls["shard_ids"]) == (8, [5, 7])
    calls.clear()
    assert cli.main(["run", "--shards", "6-9"]) == 2 and calls == {}  # 8 shards: 0 to 7
    assert cli.main(["run", "--shard-count", "auto", "--shards", "0-1"]) == 2 and calls == {}


def test_create_bot_runs_only_its_shard_ids(tmp_path: Path) -> None:
    bot = create_bot(db_path=str(tmp_path / "d.db"), shards=16, shard_ids=[4, 5, 6, 7])
    assert isinstance(bot, ShardedBoardroomBot)
    assert (bot.shard_count, bot.shard_ids) == (16, [4, 5, 6, 7])


async def test_each_process_keeps_to_its_fixed_share_of_the_global_limit() -> None:
    """Issue 37: Discord allows a bot 50 requests a second in all; a process running 4 of
    16 shards sends at most its share (with a tenth kept back), paced without the database."""
    assert global_share(16, [0, 1, 2, 3]) == pytest.approx(50 * 0.9 * 4 / 16)
    assert global_share(None, None) is None and global_share(4, [0, 1, 2, 3]) is None  # one process: all of it
    now = [100.0]
    slept: list[float] = []

    async def fake_sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += seconds

    budget = Budget(5.0, clock=lambda: now[0], sleep=fake_sleep)
    for _ in range(15):
        await budget.take()
    assert slept and sum(slept) == pytest.approx(2.0)  # 5 at once, then 10 more at 5 a second
