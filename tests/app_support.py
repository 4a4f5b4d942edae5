"""Set-ups many test modules share: a fresh database per test, a fake Discord checked
after each test, a clock that ticks, a stand-in for the Discord client's module, a
two-player game started, an export replayed.

A module takes a fixture by naming it: ``storage = storage_fixture("app.db")`` makes
the module's ``storage`` fixture (a factory, so that each module keeps its own file
name and no conftest has to serve them all)."""

from __future__ import annotations

import sys
import types
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.app import App
from bot.records import GameInfo, Outcome
from bot.storage import Storage
from engine import Game, get_game
from engine.versions import export_edition, setup_as
from tests.fake_discord import FakeDiscord


def storage_fixture(filename: str) -> Any:
    """A ``storage`` fixture: the database ``filename`` in the test's tmp_path, closed after."""

    @pytest.fixture
    async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
        s = await Storage.open(tmp_path / filename)
        yield s
        await s.close()

    return storage


def fake_fixture(check: Callable[[FakeDiscord], None] = FakeDiscord.assert_clean) -> Any:
    """A ``fake`` fixture: a running fake Discord, and ``check`` run on it after the test
    (by default: no unknown route called and no payload over Discord's limits)."""

    @pytest.fixture
    async def fake() -> AsyncIterator[FakeDiscord]:
        async with FakeDiscord() as f:
            yield f
            check(f)

    return fake


def fake_bot_module(monkeypatch: pytest.MonkeyPatch, create_bot: Callable[..., Any]) -> None:
    """``bot.discord_bot`` as ``boardroom run`` imports it, replaced by ``create_bot`` and a
    guild count of one (no sharding, and no request to the real Discord)."""

    async def approximate_guild_count(token: str) -> int:
        return 1

    fake = types.ModuleType("bot.discord_bot")
    fake.create_bot = create_bot  # type: ignore[attr-defined]
    fake.approximate_guild_count = approximate_guild_count  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bot.discord_bot", fake)


class TickingClock:
    """A clock that moves on by ``step`` seconds each time it is read."""

    def __init__(self, now: float = 1_750_000_000.0, step: float = 1.0) -> None:
        self.now = now
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


async def started_game(
    app: App, game: str, seed: int, names: Sequence[str] = ("Ann", "Bob"), channel_id: int = 9
) -> tuple[GameInfo, Outcome]:
    """``names`` (users 1, 2, ...; the first one hosts) start a game of ``game``: the game
    as created and the start's outcome."""
    info = await app.create_game(game, channel_id=channel_id, host_id=1, host_name=names[0])
    for user_id, name in enumerate(names[1:], start=2):
        await app.join(info.id, user_id, name)
    return info, await app.start(info.id, 1, seed=seed)


def replay_exported(
    data: dict[str, Any], more: Iterable[tuple[str, dict[str, Any]]] = ()
) -> tuple[Game, dict[str, Any]]:
    """The game of an exported record and the state its actions (then ``more`` (seat,
    action) pairs) lead to, set up under the record's own rules edition."""
    game = get_game(data["game"])
    seats = [s["seat"] for s in sorted(data["seats"], key=lambda s: s["position"])]
    rules, rng = export_edition(data)
    state = setup_as(game, seats, int(data["seed"]), dict(data["options"]), rules=rules, rng=rng)
    log = [(r["seat"], r["action"]) for r in sorted(data["actions"], key=lambda r: r["seq"])]
    for seat, action in [*log, *more]:
        state = game.apply(state, seat, action)
    return game, state
