"""No seat id on the board (issue 35): the table's board (``/api/board.svg``), a seat's own
area (``/api/mine.svg``), the replay's board (``/api/replay.svg``) and the Discord pictures
(the outbox's, the compact picture of a decision) name the players by their display
names, as the messages do, never by the seat ids the engine knows them by.

Each game is played through the app by seats whose ids and names differ (the host
"Quintessa Marlowe" sits in seat ``quintessamarlowe``; Steve, Steve Jr. and the rule bot
in ``steve``, ``stevejr``, ``bot1``); at each new phase every drawing is searched for a
seat id as a whole word (case-sensitive: "Steve" is a name, "steve" a seat id)."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

import render
from bot.app import App
from bot.records import GameInfo
from bot.storage import Storage
from bot.table.board import board_svg
from bot.table.mine import mine_svg
from bot.table.replay import replay_svg
from engine import ai
from render import svg
from tests.app_support import storage_fixture
from tests.render_support import record_texts

storage = storage_fixture("names.db")

NS = "{http://www.w3.org/2000/svg}"
HUMANS = ("Quintessa Marlowe", "Bartholomew Zink")
AI = {"smartphone-inc": "steve", "mobile-markets": "steve", "age-of-automaton": "bot"}
PHASES = 5  # phases looked at per game


def svg_texts(doc: str) -> list[str]:
    return ["".join(t.itertext()) for t in ET.fromstring(doc).iter(NS + "text")]


def seat_ids(info: GameInfo) -> re.Pattern[str]:
    ids = sorted((s.seat for s in info.seats), key=len, reverse=True)
    return re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, ids)) + r")(?![\w-])")


async def seated(app: App, game: str) -> GameInfo:
    info = await app.create_game(game, channel_id=900 + len(game), host_id=1, host_name=HUMANS[0])
    await app.join(info.id, 2, HUMANS[1])
    await app.add_ai(info.id, 1, AI[game])
    await app.start(info.id, 1, seed=11)
    info = await app.info(info.id)
    for s in info.seats:  # (the ids and the names differ, as in every Discord game)
        assert s.seat not in s.display_name, (s.seat, s.display_name)
    return info


async def outbox_views(storage: Storage, gid: int, seen: int) -> list[tuple[str, dict[str, Any]]]:
    """The views of the pictures the outbox rows after row ``seen`` ask to draw."""
    async with storage.read() as q:
        rows = [r for r in await q.outbox_rows(gid) if r.id > seen]
    out = []
    for r in rows:
        for spec in r.payload.get("pictures") or []:
            args = json.loads(spec["args_json"]) if "args_json" in spec else spec["args"]
            out.append((f"outbox row {r.id} {spec.get('file')}", args[1]))
    return out


async def last_row(storage: Storage, gid: int) -> int:
    async with storage.read() as q:
        return max((r.id for r in await q.outbox_rows(gid)), default=0)


@pytest.mark.parametrize("game", ["smartphone-inc", "mobile-markets", "age-of-automaton"])
async def test_the_drawings_name_players_never_by_seat_id(game: str, storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    app = App(storage, clock=lambda: 1_000_000.0, seed_source=lambda: 11)
    info = await seated(app, game)
    gid = info.id
    ids = seat_ids(info)
    humans = [s.seat for s in info.seats if s.is_human]
    drawn = record_texts(monkeypatch)
    found: list[tuple[str, str]] = []
    named: set[str] = set()
    seen_row, phases, last_phase = 0, 0, None

    def look(where: str, texts: list[str]) -> None:
        found.extend((where, t) for t in texts if ids.search(t))
        named.update(n for s in info.seats for n in [s.display_name] if any(n in t for t in texts))

    for _ in range(400):
        view = await app.view(gid, None)
        if view.get("phase") != last_phase:
            last_phase = view.get("phase")
            phases += 1
            where = f"{game} round {view.get('round')} {last_phase}"
            look(f"{where}: board.svg", svg_texts(await board_svg(app, info)))
            for seat in humans:
                look(f"{where}: {seat}'s mine.svg", svg_texts(await mine_svg(app, info, seat)))
                prompt = await app.prompt(gid, seat)
                picture = app.presenter(game).prompt_picture(prompt) if prompt else None
                if picture == "draw_compact":  # the decision's picture in Discord
                    drawn.clear()
                    render.draw_compact(game, info.drawn(await app.view(gid, seat)))
                    look(f"{where}: {seat}'s compact picture", list(drawn))
            for label, v in await outbox_views(storage, gid, seen_row):
                doc = svg.board(game, v) if v.get("you") is None else svg.mine(game, v)
                look(f"{where}: {label}", svg_texts(doc))
            seen_row = await last_row(storage, gid)
            if phases >= PHASES:
                break
        pending = [s for s in humans if await app.prompt(gid, s)]
        if not pending:
            break
        seat = pending[0]
        state = await app.state(gid)
        out = await app.act(gid, 1 if seat == humans[0] else 2, seat, ai.choose(game, state, seat, "greedy"), int(state["version"]))
        assert out.status == "applied", out
    assert phases >= 3, f"only {phases} phases seen"
    rec = await app.record(gid)
    for step in (1, len(rec.steps) // 2, len(rec.steps)):
        look(f"{game} replay step {step}", svg_texts(await replay_svg(app, info, step)))
    assert found == [], found[:10]
    assert named == {s.display_name for s in info.seats}  # (every player is named somewhere)
