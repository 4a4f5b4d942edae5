"""Discord requests of a whole game, split as Discord's global rate limit counts them
(issue 37): every REST request counts against the bot's 50 a second, except the answers
to an interaction (its callback, and its webhook ``/webhooks/{application}/{token}``:
follow-ups and edits). Used by benchmarks/bench_requests.py and tests/test_requests_per_action.py."""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from tests.discord_support import running
from tests.fake_discord import TURNS, FakeDiscord, Recorded, busy_tasks
from tests.prompt_driver import GAMES, Driver, Stats, start_game


def is_interaction_answer(rec: Recorded, app_id: str) -> bool:
    """The requests that do not count against the bot's global limit."""
    return rec.path.startswith("/interactions/") or rec.path.startswith(f"/webhooks/{app_id}/")


def shape(rec: Recorded, dms: set[str]) -> str:
    """``PATCH /channels/{id}/messages/{id}``: the route, ids and tokens left out (``{dm}``:
    a DM channel's id)."""
    path = re.sub(r"/channels/(\d+)", lambda m: "/channels/{dm}" if m.group(1) in dms else m.group(0), rec.path)
    path = re.sub(r"/\d{5,}", "/{id}", path)
    path = re.sub(r"(/webhooks/\{id\}|/interactions/\{id\})/[^/]+", r"\1/{token}", path)
    return f"{rec.method} {path}"


@dataclass
class Tally:
    game: str
    actions: int  # rows of the game's log: players', AIs' and the game's own
    counted: list[Recorded] = field(default_factory=list)  # against the global limit
    answers: list[Recorded] = field(default_factory=list)  # interaction answers
    kinds: Counter[str] = field(default_factory=Counter)  # counted requests by shape
    stats: Stats | None = None

    @property
    def per_action(self) -> float:
        return len(self.counted) / max(1, self.actions)


class PacedDriver(Driver):
    """Plays as players who click every ``pause`` seconds: after a click it waits until
    the bot sent what is due (the DMs, the posts, the edits that do not wait), not for the
    edits that wait to settle (:data:`bot.app.core.STATUS_SETTLE`): a newer one may fold
    them, as it does for players quicker than the settle time."""

    pause = 0.0

    async def settle(self) -> None:
        await asyncio.sleep(self.pause)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 60
        while loop.time() < deadline:
            busy = [t for t in busy_tasks() if not _drain_task(t)]
            if busy:
                await asyncio.wait(busy, timeout=1.0)
                continue
            n = len(self.fake.requests)
            for _ in range(TURNS):
                await asyncio.sleep(0)
            if len(self.fake.requests) != n or any(not _drain_task(t) for t in busy_tasks()):
                continue
            async with self.bot.app.storage.read() as q:
                rows = await q.pending_outbox(self.gid, held=False)
            wall = self.bot.delivery.wall()
            if all(r.next_try_at > wall for r in rows):
                break
            await asyncio.sleep(0.01)
        await self.account()


def _drain_task(task: asyncio.Task[Any]) -> bool:
    """A game's sender (``boardroom-deliver-<game>``), not one of its sends."""
    return re.fullmatch(r"boardroom-deliver-\d+", task.get_name()) is not None


async def play_counted(
    fake: FakeDiscord, db_path: str, game: str, seed: int = 1, *, pause: float | None = None, settle: float = 0.0,
) -> Tally:
    """A whole game of ``game`` (two players; the driver answers every decision from the
    newest live prompt, presses no Undo and repeats no click); the requests from the
    game's creation to its end. ``pause`` None: the bot finishes all it was set off to do
    after each click (the tests' settle time 0: no edit waits for a newer one); else the
    players click every ``pause`` seconds and the status message's edits settle for
    ``settle`` seconds (:class:`PacedDriver`)."""
    spec = GAMES[game]
    users = [fake.add_member(n) for n in spec["players"]]
    async with running(fake, db_path, renderer=None, delivery={"status_settle": settle}) as bot:
        await fake.idle()
        mark = len(fake.requests)
        await start_game(fake, game, users, spec["options"], spec["ai"])
        kind = Driver if pause is None else PacedDriver
        driver = kind(fake, bot, game, users, seed, repeat=False, undo=False, unseal=False, prefer=spec.get("prefer", ()))
        if isinstance(driver, PacedDriver):
            driver.pause = pause or 0.0
        stats = await driver.play()
        await fake.idle()
        actions = int((await bot.app.info(driver.gid)).version)
    app_id = str(fake.application_id)
    dms = {str(c) for c in fake.dm_channels.values()}
    recs = fake.requests[mark:]
    tally = Tally(game, actions, stats=stats)
    tally.counted = [r for r in recs if not is_interaction_answer(r, app_id)]
    tally.answers = [r for r in recs if is_interaction_answer(r, app_id)]
    tally.kinds = Counter(shape(r, dms) for r in tally.counted)
    return tally
