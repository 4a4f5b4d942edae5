"""Issue 20 §4's figures: junk moves and a damaged action row, through ``App.act``.

For each game: 40 junk moves built from a legal one (the type as a list or an object,
each field as an object, a list or a huge number, an unknown field, not an object at
all), counted as refused politely (status "illegal"), raw errors (an exception), or
applied with an unknown field stored in the log. Then one action row of the game is
damaged (bad JSON) and the game is read again: a polite refusal or a raw error.

    PYTHONPATH=. .venv/bin/python scripts/probe_junk.py
"""

from __future__ import annotations

import asyncio
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from bot.app import App
from bot.errors import expected_message
from bot.records import GameInfo
from bot.storage import Storage
from engine import get_game
from engine.ai import choose

GAMES = ("smartphone-inc", "mobile-markets", "age-of-automaton")
N = 40


def junks(action: dict[str, Any]) -> list[Any]:
    out: list[Any] = [
        {**action, "type": [action["type"]]}, {**action, "type": {"t": 1}}, {**action, "type": 3},
        {**action, "zz_unknown": "note"}, [action], "move", None,
    ]
    values: list[Any] = [{"x": [1]}, [[{}]], 10**30, ["a", "b"], {"A": {"B": 1}}, -1.5, True, None]
    for key in (k for k in action if k != "type"):
        out += [{**action, key: v} for v in values]
        inner = action[key]
        if isinstance(inner, dict):
            out += [{**action, key: {**inner, k: {"deep": [1]}}} for k in inner]
    while len(out) < N:
        out.append({**action, f"extra{len(out)}": len(out)})
    return out[:N]


async def first_move(app: App, name: str) -> tuple[GameInfo, str, int, dict[str, Any]]:
    """Ann and Bob start a game of ``name`` (seed 7): the game, the first seat to move,
    its player and the state."""
    info = await app.create_game(name, channel_id=9, host_id=1, host_name="Ann")
    await app.join(info.id, 2, "Bob")
    await app.start(info.id, 1, seed=7)
    state = await app.state(info.id)
    seat = sorted(get_game(name).pending(state))[0]
    uid = (await app.info(info.id)).seat_named(seat).user_id  # type: ignore[union-attr]
    return info, seat, uid, state


async def probe(tmp: Path, name: str) -> dict[str, int]:
    tally: Counter[str] = Counter()
    for i, bad in enumerate(range(N)):
        storage = await Storage.open(tmp / f"{name}-{i}.db")
        try:
            app = App(storage)
            info, seat, uid, state = await first_move(app, name)
            action = choose(name, state, seat, "random")
            move = junks(action)[bad]
            try:
                out = await app.act(info.id, uid, seat, move, int(state["version"]))
            except Exception as exc:  # noqa: BLE001 - what the probe counts
                tally[f"raw {type(exc).__name__}"] += 1
                continue
            if out.status != "applied":
                tally["polite"] += 1
                continue
            async with storage.read() as q:
                logged = (await q.actions(info.id))[-1].action
            tally["stored unknown field" if set(logged) - set(action) else "applied"] += 1
        finally:
            await storage.close()
    # a damaged action row
    storage = await Storage.open(tmp / f"{name}-corrupt.db")
    try:
        app = App(storage)
        info, seat, uid, state = await first_move(app, name)
        await app.act(info.id, uid, seat, choose(name, state, seat, "random"), int(state["version"]))
        async with storage.transaction() as tx:
            await tx.conn.execute("DROP TRIGGER actions_append_only")  # the damage: by hand
            await tx.conn.execute("UPDATE actions SET action = '{bad json' WHERE game_id = ?", (info.id,))
            await tx.conn.execute("DELETE FROM snapshots WHERE game_id = ? AND version > 0", (info.id,))
        app2 = App(storage)  # a fresh cache: the state is read from the record
        try:
            await app2.view(info.id, None)
            tally["corrupt row: read as if fine"] += 1
        except Exception as exc:  # noqa: BLE001
            polite = expected_message(exc)  # what the Discord error handler shows
            status = (await app2.info(info.id)).status
            kind = f"polite ({status})" if polite else f"raw {type(exc).__name__}"
            tally[f"corrupt row: {kind}: {(polite or str(exc))[:60]}"] += 1
    finally:
        await storage.close()
    return dict(tally)


async def main() -> None:
    with tempfile.TemporaryDirectory() as d:
        for name in GAMES:
            print(name, await probe(Path(d), name))


if __name__ == "__main__":
    asyncio.run(main())
