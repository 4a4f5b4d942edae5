"""One labeller (issue 35): the table labels each legal action with the very words the
Discord prompt shows for it, for every game, at several positions of seeded games. The
Discord words are read from what the turn message's select offers (``views.action_view``
is handed the choices), walking every group down to the single actions; the table's
from its payload (``bot.table.payload``)."""

from __future__ import annotations

import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot import choices, text
from bot.app import App
from bot.cogs import play as play_cog
from bot.storage import Storage
from bot.table.payload import table_payload
from engine import ai
from tests.app_support import started_game

POSITIONS = 5  # generic decisions of the first seat compared per game
SEEDS = {"smartphone-inc": 3, "mobile-markets": 4, "age-of-automaton": 5}


async def discord_labels(app: App, gid: int, seat: str, monkeypatch: pytest.MonkeyPatch) -> dict[int, str]:
    """Every action's label as the Discord turn message offers it: index -> label."""
    shown: list[list[choices.Choice]] = []

    def capture(*args: Any, **kwargs: Any) -> None:
        shown.append(list(args[4]))

    monkeypatch.setattr(play_cog.views, "action_view", capture)
    cog = play_cog.Play(SimpleNamespace(app=app))  # type: ignore[arg-type]
    out: dict[int, str] = {}

    async def walk(path: choices.ActionPath, depth: int) -> None:
        shown.clear()
        await cog.action_message(gid, seat, path, picture=False)
        got = list(shown[0]) if shown else []
        for c in got:
            if c.value.startswith("="):
                out[int(c.value[1:])] = c.label
            elif depth < 4 and not c.value.startswith((">", "<")):  # (a page turn re-lists the same)
                await walk(path.then(c.value), depth + 1)

    await walk(choices.ActionPath(), 0)
    return out


@pytest.mark.parametrize("game", sorted(SEEDS))
async def test_the_table_labels_actions_as_discord_does(game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    storage = await Storage.open(tmp_path / "labels.db")
    try:
        app = App(storage, clock=time.time)
        info, _out = await started_game(app, game, SEEDS[game])
        gid = info.id
        presenter = app.presenter(game)
        compared, kinds, rich = 0, set(), 0
        for _ in range(400):
            if compared >= POSITIONS:
                break
            info = await app.info(gid)
            if info.status != "active":
                break
            state = await app.state(gid)
            pending = sorted(app.engine(game).pending(state))
            seat = pending[0]
            prompt = await app.prompt(gid, seat)
            kind = (prompt or {}).get("type")
            if seat == info.seats[0].seat and presenter.secret_builder(prompt) is None and kind not in kinds:
                table = await table_payload(app, info, info.seats[0].user_id or 0)
                mine = await discord_labels(app, gid, seat, monkeypatch)
                assert mine, f"{game}: Discord offered no action for a {kind}"
                for i, label in mine.items():
                    assert text.clip(table["actions"][i]["label"], 100) == label, (game, kind, i)
                rich += sum("→" in label or "(" in label for label in mine.values())
                kinds.add(kind)
                compared += 1
            user = next(s.user_id for s in info.seats if s.seat == seat)
            await app.act(gid, int(user or 0), seat, ai.choose(game, state, seat, "greedy"), int(state["version"]))
        assert compared >= 2, f"{game}: only {compared} decisions compared ({kinds})"
        assert rich, f"{game}: no label with its numbers ({kinds})"
    finally:
        await storage.close()
