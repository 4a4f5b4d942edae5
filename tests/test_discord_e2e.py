"""End to end: the real discord.py client against the fake Discord on loopback.

Lobby, join, start, secret planning in DMs, the ``/plan`` fallback for closed
DMs, the reveal picture, a full round of turns, a restart in the middle with
old buttons still working, and a reminder that fell due while the bot was down.
Secrets: no channel message, public picture or log line shows a plan before the reveal.
"""

from __future__ import annotations

import copy
import json
import logging
import re
from typing import Any

import pytest

from tests.app_support import fake_fixture
from tests.discord_support import TOKEN, Clock, SpyRenderer, png_size, running, texts
from tests.fake_discord import EPHEMERAL, HANG, FakeDiscord, iter_components, message_text
from tests.test_words import assert_plain_words

fake = fake_fixture()


def _select(msg: dict[str, Any]) -> dict[str, Any]:
    return next(c for c in iter_components(msg) if c["type"] == 3)


def planner_dm(fake: FakeDiscord, user: dict) -> dict[str, Any]:
    """The newest DM of ``user`` that holds a planner (a select): other DMs ("you are
    the last one", a turn's "your move") may have come after it."""
    dms = fake.dm_messages(user)
    return next((m for m in reversed(dms) if any(c["type"] == 3 for c in iter_components(m))), dms[-1])


async def pick(fake: FakeDiscord, user: dict, msg: dict, index: int = 0) -> dict[str, Any]:
    sel = _select(msg)
    options = [o for o in sel["options"] if not o["value"].startswith("@")]
    ix = await fake.click(user, msg, sel["custom_id"], values=[options[index % len(options)]["value"]])
    assert ix.original is not None
    return ix.original


async def pick_value(fake: FakeDiscord, user: dict, msg: dict, prefix: str, index: int = 0) -> dict[str, Any]:
    """Choose the ``index``-th option whose value starts with ``prefix``."""
    sel = _select(msg)
    options = [o for o in sel["options"] if o["value"].startswith(prefix)]
    ix = await fake.click(user, msg, sel["custom_id"], values=[options[index % len(options)]["value"]])
    assert ix.original is not None
    return ix.original


async def build_plan(fake: FakeDiscord, user: dict, msg: dict, *, outcomes: bool = False) -> dict[str, Any]:
    """Use a planner message until the plan can be sealed; returns the planner message.
    By goal (``outcomes``): a goal, then a whole decision; else by hand: the Pads and
    sides, then the top Pad's place."""
    if outcomes:
        msg = await pick_value(fake, user, msg, "goal:")
        msg = await pick(fake, user, msg, 0)
    else:
        msg = await pick_value(fake, user, msg, "hand:", 1)
        msg = await pick(fake, user, msg, 1)
    assert "This plan gives" in message_text(msg), message_text(msg)
    return msg


async def to_confirm(fake: FakeDiscord, user: dict, msg: dict) -> dict[str, Any]:
    """Press Seal: the confirmation message (its "Yes, seal" button seals)."""
    ix = await fake.click(user, msg, "Seal")
    assert "Seal this plan?" in message_text(ix.original), ix.all_text()
    return ix.original


async def seal(fake: FakeDiscord, user: dict, msg: dict) -> Any:
    """Seal (one confirmation): the interaction of the confirmation."""
    ix = await fake.click(user, msg, "Seal")
    assert "Seal this plan?" in message_text(ix.original), ix.all_text()
    return await fake.click(user, ix.original, "Yes, seal")


def plan_code(msg: dict[str, Any]) -> str:
    """The planner's own words for the arrangement (they must never be public)."""
    line = next(ln for ln in message_text(msg).splitlines() if ln.startswith("Top: Pad"))
    return line


def public_board_views(spy: SpyRenderer) -> list[dict[str, Any]]:
    return [v for kind, _g, v, _p in spy.calls if kind == "draw" and v.get("you") is None]


def assert_no_plan_in_public(fake: FakeDiscord, spy: SpyRenderer, codes: list[str], logs: str) -> None:
    public = texts(fake.public_messages())
    for code in codes:
        assert code not in public
        assert code not in logs
    assert "plan code" not in public and "Bottom: Pad" not in public
    assert "plan code:" not in logs and "Bottom: Pad" not in logs
    for view in public_board_views(spy):
        if view.get("phase") == "planning":
            for seat, p in view["players"].items():
                assert p.get("plan") is None, f"public picture drawn with {seat}'s hidden plan"


async def new_game(fake: FakeDiscord, host: dict, joiners: list[dict], options: str | None = None) -> dict[str, Any]:
    ix = await fake.slash(host, "game new", {"game": "smartphone-inc", **({"options": options} if options else {})})
    lobby = ix.original
    assert "game #1" in message_text(lobby)
    for u in joiners:
        ix = await fake.click(u, lobby, "Join")
        # acknowledged first (deferred update, issue 8 §2), then the card is edited in place
        assert ix.callback_type == 6 and f"<@{u['id']}>" in message_text(lobby)
    assert all(f"<@{u['id']}>" in message_text(lobby) for u in [host, *joiners])
    return lobby


async def public_with(fake: FakeDiscord, needle: str, timeout: float = 60) -> dict[str, Any]:
    """The newest public message containing ``needle`` (waits for it: ``timeout`` is a
    guard against one that never comes, not a measure of speed)."""

    def find() -> dict[str, Any] | None:
        return next((m for m in reversed(fake.public_messages()) if needle in message_text(m)), None)

    return await fake.wait_for(find, timeout, what=f"a public message with {needle!r}")


def _has_turn_button(m: dict[str, Any]) -> bool:
    """A turn prompt: the "Open my turn" button on a post that does not open Planning
    (the planner comes by DM; the same button there opens it too)."""
    planning = "· Planning**" in m.get("content", "")
    return not planning and any(c.get("label") == "Open my turn" for c in iter_components(m))


def _is_turn_dm(m: dict[str, Any]) -> bool:
    """A "your move" DM: a turn that comes inside a phase (the phase's post mentioned
    only who moved first)."""
    return "Your move in game" in m.get("content", "") and _has_turn_button(m)


async def play_turns(
    fake: FakeDiscord, users: list[dict], until: str, limit: int = 120, since: int = 0, chooser: Any = None
) -> None:
    """Answer every turn prompt (the "Open my turn" button of a phase's post mentioning the
    player, or of a "your move" DM) until a public message contains ``until``; only public
    messages from index ``since`` on and DMs newer than the call count. ``chooser()``
    gives the option index to pick at each select (default: the first)."""
    used: set[str] = set()
    dm_floor = max((int(m["id"]) for u in users for m in fake.dm_messages(u)), default=0)
    for _ in range(limit):

        def ready() -> Any:
            msgs = fake.public_messages()[since:]
            if any(until in message_text(m) for m in msgs):
                return "done"
            found: list[tuple[int, dict[str, Any], list[dict]]] = []
            for m in msgs:  # (a "you are the last one" mention of a closed DM is not a turn)
                if _has_turn_button(m) and "You are the last one" not in m["content"]:
                    found.append((int(m["id"]), m, [u for u in users if f"<@{u['id']}>" in m["content"]]))
            for u in users:
                for m in fake.dm_messages(u):
                    if int(m["id"]) > dm_floor and _is_turn_dm(m):
                        found.append((int(m["id"]), m, [u]))
            fresh = [f for f in found if f[1]["id"] not in used]
            return min(fresh, key=lambda f: f[0]) if fresh else None

        target = await fake.wait_for(ready, HANG, what=f"a new turn prompt or {until!r}")
        if target == "done":
            return
        _at, msg, movers = target
        used.add(msg["id"])
        if not movers:  # "Waiting for ...": a turn going on step by step, answered below
            continue
        in_dm = msg["channel_id"] != fake.channel_id
        ix = await fake.click(movers[0], msg, "Open my turn")
        # privately: an ephemeral reply in the channel; a "your move" DM becomes the turn itself
        assert ix.callback_data.get("flags", 0) & EPHEMERAL or in_dm
        msg = ix.original
        for _step in range(20):  # Research, Logistics and Selling may go step by step
            for _ in range(12):
                if any(c.get("label", "").startswith("Confirm") for c in iter_components(msg)):
                    break
                msg = await pick(fake, movers[0], msg, chooser() if chooser else 0)
            ix = await fake.click(movers[0], msg, "Confirm")
            msg = ix.original
            assert "Done:" in message_text(msg)
            if not any(c["type"] == 3 for c in iter_components(msg)):
                break  # the turn is over (no next step shown)
    raise AssertionError(f"never reached {until!r}")


async def test_lobby_planning_reveal_and_a_full_round(fake: FakeDiscord, tmp_path: Any, caplog: Any) -> None:
    caplog.set_level(logging.DEBUG)
    ann, bob = fake.add_member("ann"), fake.add_member("bob")
    cid = fake.add_member("cid", dms_closed=True)
    spy = SpyRenderer()
    async with running(fake, str(tmp_path / "g.db"), renderer=spy):
        assert {c["name"] for c in fake.commands} >= {"game", "plan", "rules", "help"}
        choices = await fake.autocomplete(ann, "game new", {"game": "smart"}, "game")
        assert choices[0]["value"] == "smartphone-inc"

        lobby = await new_game(fake, ann, [bob, cid])
        # only the host (or Manage Server) adds AI and starts
        ix = await fake.click(bob, lobby, "Start")
        assert ix.callback_type in (5, 6) or ix.callback_data.get("flags", 0) & EPHEMERAL
        assert "Only the host" in ix.all_text() or "host" in texts(ix.followups)
        ix = await fake.click(ann, lobby, "Add AI")
        ix = await fake.click(ann, ix.original, "br:ai:", values=["steve"])
        assert "Added Steve" in ix.all_text()
        await fake.wait_for(lambda: "Steve" in message_text(lobby), what="Steve on the lobby card")

        await fake.click(ann, lobby, "Start")
        assert "(started)" in message_text(lobby)
        assert not list(iter_components(lobby))

        start = await public_with(fake, "Round 1 · Planning")
        for u in (ann, bob, cid):
            assert f"<@{u['id']}>" in start["content"]  # one message mentions everyone
        assert f"<@{cid['id']}>: I cannot send you direct messages" in start["content"]
        assert start["attachments"] and start["attachments"][0]["filename"] == "board.png"
        counter = await public_with(fake, "Plans sealed 0/3")

        # DMs with private picture and planner; none for cid (closed DMs)
        dm_ann, dm_bob = planner_dm(fake, ann), planner_dm(fake, bob)
        assert fake.dm_messages(cid) == []
        for dm in (dm_ann, dm_bob):
            assert "Your plan" in message_text(dm) and dm["_files"]
            assert dm["attachments"][0]["filename"] == "decision.png"  # the compact picture
            assert 0 < png_size(dm["_files"][0][2])[0] <= 800
        assert all(v.get("you") for kind, _g, v, _p in spy.calls if kind == "draw_compact")

        codes: list[str] = []
        msg = await build_plan(fake, ann, dm_ann, outcomes=True)
        codes.append(plan_code(msg))
        before_seal = copy.deepcopy(msg)
        ix = await fake.click(bob, before_seal, "Seal")  # not bob's planner
        assert ix.callback_data["flags"] & EPHEMERAL and "only they can use them" in ix.all_text()
        ix = await seal(fake, ann, msg)
        assert "Plan sealed" in message_text(ix.original)
        await fake.wait_for(lambda: "Plans sealed 1/3" in counter["content"], what="counter 1/3")
        assert counter.get("_edits", 0) >= 1
        ix = await fake.click(ann, before_seal, "Seal")  # a second click on the old message
        assert "Already done" in ix.all_text()  # older than ann's own seal (issue 20 part 2)

        # cid: closed DMs -> /plan opens the same planner, ephemerally
        ix = await fake.slash(cid, "plan")
        assert ix.callback_data.get("flags", 0) & EPHEMERAL
        assert ix.original["_ephemeral_for"] == cid["id"]
        msg = await build_plan(fake, cid, ix.original)
        codes.append(plan_code(msg))
        await seal(fake, cid, msg)
        await fake.wait_for(lambda: "Plans sealed 2/3" in counter["content"], what="counter 2/3")

        # nothing about a plan is public before the reveal
        assert_no_plan_in_public(fake, spy, codes, caplog.text)
        n_public = len(fake.public_messages())

        msg = await build_plan(fake, bob, planner_dm(fake, bob))
        codes.append(plan_code(msg))
        await seal(fake, bob, msg)
        await fake.wait_for(lambda: "All 3 plans sealed" in counter["content"], what="the reveal note")
        reveal = await public_with(fake, "reveals:")
        assert fake.public_messages().index(reveal) == n_public
        assert [a["filename"] for a in reveal["attachments"]] == ["reveal.png"]
        assert "reveals:" in reveal["content"]
        png = [f for f in reveal["_files"]][0][2]
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and min(png_size(png)) > 0

        # the rest of round 1 through the turn prompts, to the next Planning
        await play_turns(fake, [ann, bob, cid], until="Round 2 · Planning")
        await public_with(fake, "Plans sealed 0/3 —")
        # each turn prompt came with the compact picture of that decision, drawn from the seat's view
        compact_kinds = {v["prompt"]["type"] for kind, _g, v, _p in spy.calls if kind == "draw_compact" and v.get("prompt")}
        assert "plan" in compact_kinds and len(compact_kinds - {"plan"}) >= 2, compact_kinds
        # every picture names the players (Steve's seat "steve" by "Steve"), never by seat id
        assert all((v.get("player_names") or {}).get("steve") == "Steve" for _k, _g, v, _p in spy.calls)
        # the round's sales on the map (drawn before Phase 8 cleared them), with the round's results
        sales = [m for m in fake.public_messages() if any(a["filename"] == "round-1-sales.png" for a in m.get("attachments", []))]
        assert len(sales) == 1 and "**Round 1 results**" in sales[0]["content"]
        assert len(fake.dm_messages(ann)) >= 2  # a new planner for round 2

        # status, rules, history, export
        ix = await fake.slash(bob, "game status")
        assert "Round **2**" in ix.all_text() and "planning" in ix.all_text()
        ix = await fake.slash(bob, "rules")
        assert "1 to 4" in ix.all_text()  # the current phase's rules by default
        topics = await fake.autocomplete(bob, "rules", {"topic": "re"}, "topic")
        assert {"research", "retailers"} <= {c["value"] for c in topics}
        rounds = await fake.autocomplete(bob, "game history", {"round": ""}, "round")
        assert [c["value"] for c in rounds] == [1, 2]
        games = await fake.autocomplete(bob, "plan", {"game": ""}, "game")
        assert games and games[0]["value"] == "1"
        ix = await fake.slash(bob, "help")
        assert "/plan" in ix.all_text()
        ix = await fake.slash(bob, "game history", {"round": 1})
        assert "Round 1" in ix.all_text() and ix.followups[0]["_files"]
        ix = await fake.slash(bob, "game export")
        data = json.loads(ix.original["_files"][0][2])
        assert data["format"] == "boardroom-game" and data["seed"] is None  # not while the game runs
        assert data["seed_withheld"] and "7" not in json.dumps(data.get("options"))
        assert all(a["action"]["type"] != "plan" or a["seq"] < data["version"] - 10 for a in data["actions"][-1:])
    assert TOKEN not in caplog.text
    assert_plain_words(fake)


async def test_restart_mid_planning_old_buttons_still_work(fake: FakeDiscord, tmp_path: Any) -> None:
    ann, bob = fake.add_member("ann"), fake.add_member("bob")
    db = str(tmp_path / "restart.db")
    async with running(fake, db, renderer=SpyRenderer()):
        lobby = await new_game(fake, ann, [bob])
        await fake.click(ann, lobby, "Start")
        await fake.wait_for(lambda: fake.dm_messages(ann), what="ann's planner DM")
        msg = await build_plan(fake, ann, planner_dm(fake, ann))
        await seal(fake, ann, msg)
        await fake.wait_for(lambda: fake.dm_messages(bob), what="bob's planner DM")  # (it may come after ann's)
        bob_half = await pick_value(fake, bob, planner_dm(fake, bob), "hand:", 2)  # half-built before the restart
        await public_with(fake, "Plans sealed 1/2")
        # the export of a game in Planning hides the sealed plan (not revealed yet)
        ix = await fake.slash(bob, "game export")
        data = json.loads(ix.original["_files"][0][2])
        plans = [a for a in data["actions"] if a["action"]["type"] == "plan"]
        assert [a["action"] for a in plans] == [{"type": "plan", "hidden": True}] and data["redacted"] == 1
        assert "until it is public" in data["note"]
    identifies = fake.identifies
    async with running(fake, db, renderer=SpyRenderer()):
        assert fake.identifies == identifies + 1
        # bob goes on with the very same DM message: its draft lives in the database
        assert "Bottom: Pad A side 2" in message_text(bob_half)
        assert not (bob_half["embeds"][0].get("footer") or {}).get("text")  # no code in a footer
        msg = await pick(fake, bob, bob_half, 0)
        assert "Bottom: Pad A side 2" in message_text(msg)
        ix = await seal(fake, bob, msg)
        assert "Plan sealed" in message_text(ix.original)
        reveal = await public_with(fake, "reveals:")
        assert "Round 1" in reveal["content"]
        # and the turn button posted after the restart works too
        await play_turns(fake, [ann, bob], until="Research Technology")


async def test_reminder_after_downtime_dm_and_channel_fallback(fake: FakeDiscord, tmp_path: Any) -> None:
    ann = fake.add_member("ann")
    dee = fake.add_member("dee", dms_closed=True)
    clock = Clock()
    db = str(tmp_path / "remind.db")
    async with running(fake, db, renderer=None, clock=clock):
        lobby = await new_game(fake, ann, [dee])
        ix = await fake.slash(dee, "game settings", {"remind_hours": 1.0})
        assert "Only the host" in ix.all_text()
        ix = await fake.slash(ann, "game settings", {"remind_hours": 1.0, "repeat_hours": 6.0})
        assert "Game settings saved" in ix.all_text()
        await fake.click(ann, lobby, "Start")
        await public_with(fake, "Plans sealed 0/2")
        before = len(fake.dm_messages(ann))
    clock.advance(2 * 3600)  # the bot is down while the reminders fall due
    async with running(fake, db, renderer=None, clock=clock):
        await fake.wait_for(lambda: len(fake.dm_messages(ann)) > before, what="a reminder DM")
        reminder = fake.dm_messages(ann)[-1]
        assert "Reminder" in message_text(reminder) and "Your plan" in message_text(reminder)
        assert "The AI takes over your seat <t:" in message_text(reminder)  # the clock on every prompt
        fallback = await fake.wait_for(
            lambda: next((m for m in fake.public_messages() if f"<@{dee['id']}> ⏰" in m["content"]), None),
            what="a channel reminder for closed DMs",
        )
        assert "/plan" in fallback["content"]
        # the reminder links the one live planner (no second planner), which works
        assert "Your planner is here" in message_text(reminder)
        planners = [m for m in fake.dm_messages(ann) if m.get("embeds") and "Your plan" in m["embeds"][0].get("title", "")]
        assert len(planners) == 1
        msg = await build_plan(fake, ann, planners[0])
        ix = await seal(fake, ann, msg)
        assert "Plan sealed" in message_text(ix.original)


async def test_a_player_who_chose_mentions_is_reminded_in_the_channel_not_by_dm(fake: FakeDiscord, tmp_path: Any) -> None:
    """Issue 36: "a mention in the game's channel, no DM" holds for reminders too; the
    other player (no choice) still gets the DM."""
    ann, bob = fake.add_member("ann"), fake.add_member("bob")
    clock = Clock()
    db = str(tmp_path / "remind-mention.db")
    async with running(fake, db, renderer=None, clock=clock):
        lobby = await new_game(fake, ann, [bob])
        ix = await fake.slash(ann, "games", {"notify": "mention"})
        assert "a mention in the game's channel, no DM" in ix.all_text()
        await fake.slash(ann, "game settings", {"remind_hours": 1.0, "repeat_hours": 6.0})
        await fake.click(ann, lobby, "Start")
        await public_with(fake, "Plans sealed 0/2")
        before = {u["username"]: len(fake.dm_messages(u)) for u in (ann, bob)}
    clock.advance(2 * 3600)  # the reminders fall due
    async with running(fake, db, renderer=None, clock=clock):
        await fake.wait_for(lambda: len(fake.dm_messages(bob)) > before["bob"], what="bob's reminder DM")
        mention = await fake.wait_for(
            lambda: next((m for m in fake.public_messages() if f"<@{ann['id']}> ⏰ Reminder" in m["content"]), None),
            what="ann's reminder in the channel",
        )
        assert "/plan" in mention["content"] and "The AI takes over your seat <t:" in mention["content"]
        await fake.idle()
        assert not [m for m in fake.dm_messages(ann)[before["ann"]:] if "Reminder" in message_text(m)]
        assert "Reminder" in message_text(fake.dm_messages(bob)[-1])


async def test_errors_are_private_and_unexpected_ones_get_an_id(
    fake: FakeDiscord, tmp_path: Any, caplog: Any
) -> None:
    caplog.set_level(logging.INFO)
    ann, bob = fake.add_member("ann"), fake.add_member("bob")
    async with running(fake, str(tmp_path / "err.db"), renderer=None) as bot:
        ix = await fake.slash(ann, "game join")
        assert ix.callback_data["flags"] & EPHEMERAL and "no game in this channel" in ix.all_text()
        await new_game(fake, ann, [bob])
        ix = await fake.slash(bob, "game abandon")
        assert ix.callback_data["flags"] & EPHEMERAL and "Only the host" in ix.all_text()

        async def broken(*_a: Any, **_k: Any) -> Any:
            raise RuntimeError("database on fire")

        bot.app.game_in_channel = broken  # type: ignore[method-assign]
        ix = await fake.slash(ann, "game status")
        text = ix.all_text()
        assert ix.callback_data["flags"] & EPHEMERAL
        m = re.search(r"error id `([0-9a-f]{8})`", text)
        assert m and "database on fire" not in text
        assert m.group(1) in caplog.text and "database on fire" in caplog.text
    assert TOKEN not in caplog.text


async def test_abandon_with_confirmation(fake: FakeDiscord, tmp_path: Any) -> None:
    ann, bob = fake.add_member("ann"), fake.add_member("bob", manage_guild=True)
    async with running(fake, str(tmp_path / "ab.db"), renderer=None):
        await new_game(fake, ann, [])
        ix = await fake.slash(bob, "game abandon")  # a server manager may
        ix = await fake.click(bob, ix.original, "abandon")
        assert "abandoned" in ix.all_text()
        await public_with(fake, "was abandoned")
        ix = await fake.slash(ann, "game status")
        assert "no game in this channel" in ix.all_text()


async def test_ai_takeover_after_the_deadline(fake: FakeDiscord, tmp_path: Any) -> None:
    ann, bob = fake.add_member("ann"), fake.add_member("bob")
    clock = Clock()
    db = str(tmp_path / "takeover.db")
    async with running(fake, db, renderer=None, clock=clock):
        lobby = await new_game(fake, ann, [bob])
        ix = await fake.slash(ann, "game settings", {"takeover": True, "takeover_hours": 3.0, "remind_hours": 1.0})
        assert "AI takeover: on, after 3 h" in ix.all_text()
        await fake.click(ann, lobby, "Start")
        await fake.wait_for(lambda: fake.dm_messages(ann), what="ann's planner DM")
        msg = await build_plan(fake, ann, planner_dm(fake, ann))
        await seal(fake, ann, msg)
        await public_with(fake, "Plans sealed 1/2")
    clock.advance(4 * 3600)
    async with running(fake, db, renderer=None, clock=clock):
        notice = await fake.wait_for(
            lambda: next((m for m in fake.public_messages() if "the AI plays their seat" in m["content"]), None),
            what="the takeover notice",
        )
        assert "Bob" in notice["content"]
        await fake.wait_for(lambda: any("reveals:" in m["content"] for m in fake.public_messages()), what="the reveal")
        ix = await fake.slash(bob, "game reclaim")
        assert "plays their seat again" in ix.all_text()


async def test_kick_removes_a_lobby_seat_and_hands_a_running_seat_to_the_ai(
    fake: FakeDiscord, tmp_path: Any
) -> None:
    ann, bob, cid = fake.add_member("ann"), fake.add_member("bob"), fake.add_member("cid")
    async with running(fake, str(tmp_path / "kick.db"), renderer=None) as bot:
        lobby = await new_game(fake, ann, [bob, cid])
        # autocomplete: every seat but the host's
        seats = await fake.autocomplete(ann, "game kick", {"seat": ""}, "seat")
        assert [c["value"] for c in seats] == ["bob", "cid"]
        assert [c["value"] for c in await fake.autocomplete(ann, "game kick", {"seat": "ci"}, "seat")] == ["cid"]
        # only the host or Manage Server
        ix = await fake.slash(bob, "game kick", {"seat": "cid"})
        assert ix.callback_data["flags"] & EPHEMERAL and "Only the host" in ix.all_text()
        ix = await fake.slash(ann, "game kick", {"seat": "nobody"})
        assert ix.callback_data["flags"] & EPHEMERAL and "no seat" in ix.all_text()
        # in the lobby the seat goes away and the card follows
        ix = await fake.slash(ann, "game kick", {"seat": "cid"})
        assert "removed from game #1" in ix.all_text()
        await fake.wait_for(lambda: f"<@{cid['id']}>" not in message_text(lobby), what="the card without cid")
        assert [s.seat for s in (await bot.app.info(1)).seats] == ["ann", "bob"]

        # in a running game the AI plays the seat: bob's plan is sealed for him
        await fake.click(ann, lobby, "Start")
        counter = await public_with(fake, "Plans sealed 0/2")
        assert [c["value"] for c in await fake.autocomplete(ann, "game kick", {"seat": ""}, "seat")] == ["ann", "bob"]
        ix = await fake.slash(ann, "game kick", {"seat": "bob"})
        assert "handed" in ix.all_text() and "/game reclaim" in ix.all_text()
        await fake.wait_for(lambda: "Plans sealed 1/2" in counter["content"], what="the AI's sealed plan")
        info = await bot.app.info(1)
        assert info.seat_named("bob").ai_takeover
        assert [c["value"] for c in await fake.autocomplete(ann, "game kick", {"seat": ""}, "seat")] == ["ann"]
        ix = await fake.slash(ann, "game kick", {"seat": "bob"})
        assert "already plays" in ix.all_text()
        ix = await fake.slash(ann, "game status")
        assert "AI plays this seat" in ix.all_text()
        # bob can take his seat back
        ix = await fake.slash(bob, "game reclaim")
        assert "plays their seat again" in ix.all_text()


@pytest.mark.parametrize(
    ("options", "steve", "seed"),
    [(None, True, None), ("tech_sides=random block_size=3 hardcore=true", False, None), ("tech_sides=random", True, 5)],
)
async def test_a_whole_game_to_the_final_scores(
    fake: FakeDiscord, tmp_path: Any, monkeypatch: pytest.MonkeyPatch, options: str | None, steve: bool, seed: int | None
) -> None:
    """Five rounds through Discord (two players, with Steve or with random Technology
    sides, a 3-space Block and Hardcore Mode): DM planners every round, every turn
    through the buttons (step by step where a turn goes on), to the final scores; no
    unknown route, no error reply. With a ``seed``, players pick options at random
    (seeded), stops and declines included. Nothing a player reads names an internal id
    (tests/test_words.py) or a card code, and no label is cut (tests/cut_support.py)."""
    import random

    from tests.cut_support import check_cuts, record_cuts

    cuts = record_cuts(monkeypatch)

    rnd_pick = random.Random(seed)
    chooser = (lambda: rnd_pick.randrange(25)) if seed is not None else None
    ann, bob = fake.add_member("ann"), fake.add_member("bob")
    async with running(fake, str(tmp_path / "whole.db"), renderer=SpyRenderer()) as bot:
        lobby = await new_game(fake, ann, [bob], options)
        if steve:
            ix = await fake.click(ann, lobby, "Add AI")
            await fake.click(ann, ix.original, "br:ai:", values=["steve"])
        await fake.click(ann, lobby, "Start")

        def planner_for(u: dict, rnd: int) -> dict[str, Any] | None:
            return next(
                (m for m in reversed(fake.dm_messages(u)) if f"round {rnd} (game" in message_text(m)), None
            )

        for rnd in range(1, 6):
            since = len(fake.public_messages())
            for u in (ann, bob):
                msg = await fake.wait_for(lambda u=u, rnd=rnd: planner_for(u, rnd), what=f"a round {rnd} planner")
                # a fresh planner for a seat that still has to plan (no decision leaked in early)
                assert (await bot.app.prompt(1, u["username"]))["type"] == "plan"
                msg = await build_plan(fake, u, msg)
                ix = await seal(fake, u, msg)
                assert "Plan sealed" in ix.all_text()
            until = f"Round {rnd + 1} · Planning" if rnd < 5 else "Game over"
            await play_turns(fake, [ann, bob], until=until, since=since, chooser=chooser)
        final = await public_with(fake, "Game over")
        assert final["embeds"] and "Final scores" in final["embeds"][0]["title"]
        text_ = message_text(final)
        assert "ann" in text_.lower() and "bob" in text_.lower() and ("steve" in text_.lower()) == steve
        everything = fake.public_messages() + fake.dm_messages(ann) + fake.dm_messages(bob)
        assert not any("Sorry" in message_text(m) or "went wrong" in message_text(m) for m in everything)
        assert sum("Game over" in message_text(m) for m in fake.public_messages()) == 1
    assert_plain_words(fake)  # no internal id in anything a player read (tests/test_words.py)
    check_cuts(fake, cuts, "smartphone-inc")


async def test_a_whole_five_company_game_with_a_closed_dm(fake: FakeDiscord, tmp_path: Any) -> None:
    """Five humans (no Retailers), one with DMs closed who plans with ``/plan`` every
    round, seeded random choices: the game reaches the final scores."""
    import random

    pick_rng = random.Random(3)
    users = [fake.add_member(n) for n in ("ann", "bob", "cid", "dan")] + [fake.add_member("eve", dms_closed=True)]
    eve = users[-1]
    async with running(fake, str(tmp_path / "five.db"), renderer=SpyRenderer()) as bot:
        lobby = await new_game(fake, users[0], users[1:])
        await fake.click(users[0], lobby, "Start")

        def planner_for(u: dict, rnd: int) -> dict[str, Any] | None:
            return next((m for m in reversed(fake.dm_messages(u)) if f"round {rnd} (game" in message_text(m)), None)

        for rnd in range(1, 6):
            since = len(fake.public_messages())
            await public_with(fake, f"Round {rnd} · Planning")
            for u in users:
                if u is eve:
                    ix = await fake.slash(eve, "plan")
                    assert ix.original["_ephemeral_for"] == eve["id"]
                    msg = ix.original
                else:
                    msg = await fake.wait_for(lambda u=u, rnd=rnd: planner_for(u, rnd), what=f"a round {rnd} planner")
                msg = await build_plan(fake, u, msg)
                assert "Plan sealed" in (await seal(fake, u, msg)).all_text()
            until = f"Round {rnd + 1} · Planning" if rnd < 5 else "Game over"
            await play_turns(fake, users, until=until, since=since, chooser=lambda: pick_rng.randrange(25))
        assert (await bot.app.info(1)).status == "finished"
        assert fake.dm_messages(eve) == []  # nothing could be sent to her: everything went by /plan
    assert_plain_words(fake)
