"""Discord requests of a whole game, split as Discord's global rate limit counts them
(issue 37): every REST request counts against the bot's 50 a second, except the answers
to an interaction (its callback, and its webhook ``/webhooks/{application}/{token}``:
follow-ups and edits). Used by benchmarks/bench_requests.py and tests/test_requests_per_action.py."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from tests.discord_support import running
from tests.fake_discord import FakeDiscord, Recorded
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


async def play_counted(fake: FakeDiscord, db_path: str, game: str, seed: int = 1, **overrides: Any) -> Tally:
    """A whole game of ``game`` (two players; the driver answers every decision from the
    newest live prompt, lets the bot finish after each click, presses no Undo and repeats
    no click); the requests from the game's creation to its end."""
    spec = GAMES[game]
    users = [fake.add_member(n) for n in spec["players"]]
    async with running(fake, db_path, renderer=None, **overrides) as bot:
        await fake.idle()
        mark = len(fake.requests)
        await start_game(fake, game, users, spec["options"], spec["ai"])
        driver = Driver(fake, bot, game, users, seed, repeat=False, undo=False, unseal=False,
                        prefer=spec.get("prefer", ()))
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
