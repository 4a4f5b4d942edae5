"""A planner click that lands while the round's planner DM is being remembered is kept.

The deliverer sends the planner DM, then ``Play.remember_planner`` records which
message shows the draft. A click handled in between (the player is quick) saves a
newer draft; remembering the message must never write an older draft back (the
next click would then read "that choice is out of date").
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from fakegame import FakeClock

from bot.app import App
from bot.app.compose import decision_key
from bot.cogs.play import Play
from bot.storage import Storage
from tests.app_support import started_game


async def test_a_click_while_the_planner_dm_is_remembered_is_kept(tmp_path: Path) -> None:
    storage = await Storage.open(tmp_path / "race.db")
    try:
        app = App(storage, clock=FakeClock())
        info, out = await started_game(app, "smartphone-inc", seed=21)
        assert out.phase == "planning" and "ann" in out.secret_seats
        info = await app.info(info.id)
        seat = "ann"
        key = decision_key(await app.view(info.id, seat))
        builder = app.presenter(info.game).secret_builder(await app.prompt(info.id, seat))
        assert builder is not None
        ctx = builder.context(await app.prompt(info.id, seat), await app.view(info.id, seat), seat)
        codes = _click_codes(builder, ctx)  # the drafts a quick player makes, one per click
        clicks = iter(codes)
        saved: list[str] = []
        inside = False
        depth = 0

        async def click() -> None:  # the interaction handler's save (Play.on_planner)
            nonlocal inside
            code = next(clicks, None)
            if code is not None:
                inside = False  # the click's own reads land no further click
                await app.save_draft(info.id, seat, key, code)
                saved.append(code)
                inside = True

        def hooked(name: str) -> Any:
            real = getattr(app, name)

            async def read(*args: Any, **kwargs: Any) -> Any:
                nonlocal depth
                depth += 1
                try:
                    result = await real(*args, **kwargs)
                finally:
                    depth -= 1
                if inside and depth == 0:  # a click lands after each read remember_planner makes
                    await click()
                return result

            return read

        for name in ("prompt", "view", "draft", "info", "state"):
            setattr(app, name, hooked(name))
        play = Play(SimpleNamespace(app=app))  # type: ignore[arg-type]
        inside = True
        await play.remember_planner(info, seat, 777, 555)
        inside = False
        assert saved, "no click landed while the planner was remembered"
        row = await app.draft(info.id, seat, key)
        assert row is not None
        assert row.draft == saved[-1]  # the newest click's draft, not the one read before it
        assert (row.channel_id, row.message_id) == (777, 555)
    finally:
        await storage.close()


def _click_codes(builder: Any, ctx: Any) -> list[str]:
    """Successive drafts of a player building by hand: each click one step further."""
    draft = builder.decode(None)
    codes: list[str] = []
    for _ in range(4):
        options = builder.choices(draft, ctx)
        value = next((o.value for o in options if not o.value.startswith("@")), None)
        if value is None:
            break
        draft = builder.step(draft, ctx, "select", value)
        codes.append(builder.encode(draft))
    assert len(set(codes)) == len(codes) >= 3
    return codes

