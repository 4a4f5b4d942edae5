"""The table's flow through a game (issue 35), over its HTTP API: the replay (every log
line with the players' names, the board as SVG at each step, access-checked, a sealed
plan hidden until its reveal), the reveal after the last plan, and a half-built plan
kept on the server for its own seat only."""

from __future__ import annotations

import json
import re
from typing import Any

from tests.test_table_server import table_of, world

__all__ = ["world"]


async def _seal(world: dict[str, Any], who: str, n: int) -> dict[str, Any]:
    t = await table_of(world[who])
    status, out, _ = await world[who].call("POST", "/api/act", {"game": world["game"], "action": t["actions"][n]["action"], "version": t["version"]})
    assert status == 200 and out["status"] == "applied", out
    return t["actions"][n]["action"]


async def test_the_replay_has_every_line_with_names_and_the_board_at_each_step(world: dict[str, Any]) -> None:
    gid = world["game"]
    async with world["app"].storage.transaction() as q:  # names unlike the seat ids, as Discord's are
        await q._write("UPDATE seats SET display_name = 'Ann Lee' WHERE game_id = ? AND seat = 'ann'", (gid,))
        await q._write("UPDATE seats SET display_name = 'Bob Ray' WHERE game_id = ? AND seat = 'bob'", (gid,))
    world["app"]._forget(gid)
    plan = await _seal(world, "ann", 5)
    status, one, _ = await world["carl"].call("GET", f"/api/replay?game={gid}&step=1")
    assert status == 200 and one["step"] == 1
    assert any("Ann Lee" in line for line in one["lines"]), one["lines"]
    assert json.dumps(plan["plan"]["top"]) not in json.dumps(one)  # sealed: hidden
    await _seal(world, "bob", 0)
    status, whole, _ = await world["carl"].call("GET", f"/api/replay?game={gid}")
    assert whole["step"] == whole["last"] == 2
    assert len(whole["lines"]) > 6  # every line, not the last six
    assert whole["added"] >= 3 and any("reveals" in line for line in whole["lines"][-whole["added"]:])
    said = "\n".join(whole["lines"])
    assert not re.search(r"\b(ann|bob)\b", said), said  # never a seat id
    # the board at a step: SVG of the public view then, for those who may see the game only
    status, svg1, headers = await world["carl"].call("GET", f"/api/replay.svg?game={gid}&step=1")
    assert status == 200 and headers["Content-Type"].startswith("image/svg+xml") and svg1.lstrip().startswith("<svg")
    status, svg0, _ = await world["carl"].call("GET", f"/api/replay.svg?game={gid}&step=0")
    assert status == 200 and svg0 != svg1
    world["channel"].seers.discard(int(world["users"]["carl"]["id"]))
    world["server"].access._kept.clear()
    for path in (f"/api/replay.svg?game={gid}&step=1", f"/api/replay?game={gid}&step=1", f"/api/reveal?game={gid}&since=0"):
        status, data, _ = await world["carl"].call("GET", path)
        assert status == 404 and "Internal" not in json.dumps(data), (path, data)
    assert (await world["anon"].call("GET", f"/api/replay.svg?game={gid}&step=0"))[0] == 401
    status, data, _ = await world["ann"].call("GET", f"/api/replay.svg?game={gid}&step=x")
    assert status == 400 and "step" in data["error"]


async def test_the_reveal_tells_every_plan_once_the_last_is_sealed(world: dict[str, Any]) -> None:
    gid = world["game"]
    await _seal(world, "ann", 3)
    sealed = await table_of(world["ann"])
    assert sealed["secret"] is True  # the page knows a reveal is coming
    await _seal(world, "bob", 1)
    after = await table_of(world["ann"])
    assert after["secret"] is False
    status, out, _ = await world["ann"].call("GET", f"/api/reveal?game={gid}&since={sealed['version']}")
    assert status == 200
    revealed = [line for line in out["lines"] if "reveals" in line]
    assert len(revealed) == 2 and revealed[0].startswith("ann") and revealed[1].startswith("bob"), out["lines"]
    assert not any("sealed a plan (1/2)" in line for line in out["lines"])  # only what came after


async def test_the_reveal_gives_the_rounds_results(world: dict[str, Any]) -> None:
    from engine import ai

    app, gid = world["app"], world["game"]
    users = {s: int(world["users"][s]["id"]) for s in ("ann", "bob")}
    start = None
    for _ in range(300):
        state = await app.state(gid)
        if state.get("round") == 2:
            break
        if start is None and state.get("phase") != "planning":
            start = int(state["version"])
        seat = sorted(app.engine("smartphone-inc").pending(state))[0]
        await app.act(gid, users[seat], seat, ai.choose("smartphone-inc", state, seat, "greedy"), int(state["version"]))
    status, out, _ = await world["bob"].call("GET", f"/api/reveal?game={gid}&since={start}")
    assert status == 200 and len(out["results"]) == 1, out
    assert out["results"][0].startswith("Round 1 results") and "VP" in out["results"][0]


async def test_a_half_built_plan_is_kept_for_its_own_seat_until_it_is_sealed(world: dict[str, Any]) -> None:
    gid = world["game"]
    draft = {"bottom": "B", "x": 1, "y": 0, "imps": {}}
    status, out, _ = await world["ann"].call("POST", "/api/draft", {"game": gid, "draft": draft})
    assert status == 200 and out == {"ok": True}
    assert (await table_of(world["ann"]))["draft"] == draft  # a reload, another device
    assert (await table_of(world["bob"]))["draft"] is None  # never another seat's
    assert (await table_of(world["carl"]))["draft"] is None
    status, out, _ = await world["carl"].call("POST", "/api/draft", {"game": gid, "draft": draft})
    assert status == 403 and out["error"]  # a bystander keeps nothing
    big = {"x": "y" * 5000}
    status, out, _ = await world["ann"].call("POST", "/api/draft", {"game": gid, "draft": big})
    assert status == 400 and "too large" in out["error"]
    for bad in ([1, 2], "plan", 7):
        status, out, _ = await world["ann"].call("POST", "/api/draft", {"game": gid, "draft": bad})
        assert status == 400, bad
    assert (await table_of(world["ann"]))["draft"] == draft  # unchanged by the refusals
    await _seal(world, "ann", 0)
    await world["ann"].call("POST", "/api/act", {"game": gid, "action": {"type": "unseal"}, "version": (await table_of(world["ann"]))["version"]})
    assert (await table_of(world["ann"]))["draft"] is None  # sealed: the draft was spent
    await world["ann"].call("POST", "/api/draft", {"game": gid, "draft": {"kept": 1}})
    t = await table_of(world["ann"])  # ann seals from Discord (the table's row stays) ...
    out = await world["app"].act(gid, int(world["users"]["ann"]["id"]), "ann", t["actions"][0]["action"], t["version"])
    assert out.status == "applied"
    await _seal(world, "bob", 0)  # ... and the planning is over: that draft is never shown again
    async with world["app"].storage.read() as q:
        left = await q._all("SELECT seat FROM table_drafts WHERE game_id = ?", (gid,))
    assert [r[0] for r in left] == ["ann"]
    assert (await table_of(world["ann"]))["draft"] is None
