"""Issue 7 through the real bot and the fake Discord: the clock on every prompt, "you are
the last one", "DM me every turn", the status message refreshed at a player's first
change, and one "Round N results" post per round with the sales picture showing the VP
after scoring. Plus the generic round-results hook of every game's presenter."""

from __future__ import annotations

import re
from typing import Any

from bot.games import find
from tests.app_support import fake_fixture
from tests.discord_support import SpyRenderer, running
from tests.fake_discord import FakeDiscord, iter_components, message_text
from tests.test_discord_e2e import (
    build_plan,
    new_game,
    pick,
    pick_value,
    play_turns,
    public_with,
    seal,
)
from tests.test_words import assert_plain_words

STAMP = re.compile(r"<t:(\d+):R>")


fake = fake_fixture()


def stub_spy() -> SpyRenderer:
    spy = SpyRenderer()
    spy.real = None  # small stand-in pictures: what is drawn is what is checked
    return spy


def last_one_dms(fake: FakeDiscord, user: dict) -> list[dict[str, Any]]:
    return [m for m in fake.dm_messages(user) if "You are the last one" in message_text(m)]


async def test_deadlines_last_one_every_turn_dm_and_round_results(fake: FakeDiscord, tmp_path: Any) -> None:
    ann, bob = fake.add_member("ann"), fake.add_member("bob")
    spy = stub_spy()
    async with running(fake, str(tmp_path / "prompts.db"), renderer=spy) as bot:
        app = bot.app
        lobby = await new_game(fake, ann, [bob])
        ix = await fake.slash(ann, "game settings", {"dm_every_turn": True})
        assert "every turn of yours" in ix.all_text()
        assert await app.dm_every_turn(1, int(ann["id"])) and not await app.dm_every_turn(1, int(bob["id"]))
        await fake.click(ann, lobby, "Start")
        start_vp = {s: p["vp"] for s, p in (await app.view(1, None))["players"].items()}

        # the clock on every prompt: the phase's post, the status message, the planner DM
        due = {(d.seat, d.kind): int(d.due_at) for d in await app.deadlines(1)}
        assert {k for _s, k in due} == {"nudge", "takeover"}  # a new game: reminder and AI takeover
        # (the AI takeover's time, which does not move; the next reminder's time moves
        # each time one is sent, so it is shown only by /game status: tests/test_status_deadlines.py)
        opening = await public_with(fake, "Round 1 · Planning")
        assert f"AI takes over <t:{due[('ann', 'takeover')]}:R>" in message_text(opening)
        status = await public_with(fake, "Plans sealed 0/2")
        for seat in ("ann", "bob"):
            assert f"{seat.capitalize()}: AI takes over <t:{due[(seat, 'takeover')]}:R>" in message_text(status)
        assert "🔔 A reminder after 4 h of waiting, then every 12 h." in message_text(status)
        planner = await fake.wait_for(lambda: fake.dm_messages(ann), what="ann's planner")
        assert f"AI takes over <t:{due[('ann', 'takeover')]}:R>" in message_text(planner[-1])
        ix = await fake.slash(ann, "game status")
        assert f"reminder <t:{due[('ann', 'nudge')]}:R>" in ix.all_text()

        # the status message's "changed nothing yet" list follows ann's first change at once
        assert "nothing changed yet" not in message_text(status)
        msg = await pick_value(fake, ann, planner[-1], "hand:", 1)
        await fake.wait_for(
            lambda: "nothing changed yet in the planner of Bob" in message_text(status), what="the status refreshed"
        )
        assert "Ann" not in message_text(status).split("nothing changed yet")[1].splitlines()[0]

        # "you are the last one": bob, once per decision (ann's unseal and second seal: no second DM)
        built = await pick(fake, ann, msg, 1)  # as build_plan does, from where ann is
        assert "This plan gives" in message_text(built)
        sealed = await seal(fake, ann, built)
        await fake.wait_for(lambda: last_one_dms(fake, bob), what="bob's 'last one' DM")
        assert not last_one_dms(fake, ann)
        ix = await fake.click(ann, sealed.original, "Change my plan")
        assert "This plan gives" in message_text(ix.original)
        await seal(fake, ann, ix.original)  # the same plan, sealed again
        await public_with(fake, "Plans sealed 1/2")
        await fake.idle()
        dms = last_one_dms(fake, bob)
        assert len(dms) == 1 and "<#" in message_text(dms[0])
        # on bob's planner DM itself, the decision's one DM (issue 21: one DM per turn)
        assert any(c["type"] == 3 for c in iter_components(dms[0]))

        # the reveal: a player who asked for it gets a DM for their turn at the new phase too
        ann_dms = len(fake.dm_messages(ann))
        bob_dms = len(fake.dm_messages(bob))
        await build_and_seal(fake, bob)
        reveal = await public_with(fake, "reveals:")
        await fake.idle()
        movers = set(re.findall(r"<@(\d+)>", message_text(reveal)))
        turn_dm = [m for m in fake.dm_messages(ann)[ann_dms:] if "Your move in game #1" in message_text(m)]
        if ann["id"] in movers:
            assert len(turn_dm) == 1 and f"<#{fake.channel_id}>" in message_text(turn_dm[0])
            assert STAMP.search(message_text(turn_dm[0]))  # with its deadline
        else:
            assert not turn_dm
        assert not [m for m in fake.dm_messages(bob)[bob_dms:] if "Your move in game #1" in message_text(m)]
        ix = await fake.slash(ann, "game settings", {"dm_every_turn": False})
        assert "only for turns inside a phase" in ix.all_text()

        # the round ends: one "Round 1 results" post, then Round 2's post
        await play_turns(fake, [ann, bob], until="Round 2 · Planning")
        await public_with(fake, "Plans sealed 0/2")
        await fake.idle()
        results = [m for m in fake.public_messages() if "Round 1 results" in message_text(m)]
        assert len(results) == 1
        text = message_text(results[0])
        end_vp = {s: p["vp"] for s, p in (await app.view(1, None))["players"].items()}
        for seat in ("ann", "bob"):
            change = end_vp[seat] - start_vp[seat]
            line = next(ln for ln in text.splitlines() if ln.startswith(f"**{seat.capitalize()}**"))
            assert f"{change:+d} VP" in line and line.endswith(f"→ {end_vp[seat]} VP"), line
            assert "control of regions" in line or "sales" in line or change == 0, line
        # the sales picture goes with the results, drawn with the VP after scoring
        assert [a["filename"] for a in results[0]["attachments"]] == ["round-1-sales.png"]
        sales = [v for kind, _g, v, _p in spy.calls if kind == "draw" and v.get("phase") == "vp" and v.get("round") == 1]
        assert sales and {s: p["vp"] for s, p in sales[-1]["players"].items()} == end_vp
        order = fake.public_messages()
        planning2 = next(m for m in order if "**Round 2 · Planning**" in message_text(m))
        assert order.index(results[0]) < order.index(planning2)
        assert "round-1-sales.png" not in [a["filename"] for a in planning2["attachments"]]
    assert_plain_words(fake)


async def build_and_seal(fake: FakeDiscord, user: dict) -> None:
    msg = await fake.wait_for(lambda: fake.dm_messages(user), what="a planner")
    planner = next(m for m in reversed(msg) if "Your plan" in message_text(m))
    built = await build_plan(fake, user, planner)
    await seal(fake, user, built)


# --- the presenter hook, for every game ---------------------------------------------------


def names(seat: str) -> str:
    return seat.capitalize()


def test_round_results_default_compares_the_scores_of_any_game() -> None:
    """Generic: Age of Automaton's VP, Mobile Markets' money; best change first."""
    aoa = find("age-of-automaton")
    assert aoa is not None
    before = {"ann": 3, "bob": 5}
    after = {"players": {"ann": {"vp": 10}, "bob": {"vp": 6}}}
    text = aoa.round_results(2, before, after, names)
    assert text is not None
    assert text.splitlines() == ["**Round 2 results**", "**Ann**: +7 VP → 10 VP", "**Bob**: +1 VP → 6 VP"]
    mm = find("mobile-markets")
    assert mm is not None
    text = mm.round_results(1, {"ann": 0, "bob": 4}, {"players": {"ann": {"money": 9}, "bob": {"money": 1}}}, names)
    assert text is not None and text.splitlines()[1:] == ["**Ann**: +9 money → 9 money", "**Bob**: -3 money → 1 money"]
    # unknown scores (a round begun before the bot kept them, a view without scores): no post
    assert aoa.round_results(2, {}, after, names) is None
    assert aoa.round_results(2, before, {"players": {"ann": {}, "bob": {}}}, names) is None


def test_smartphone_inc_results_by_source_and_the_sales_picture_after_scoring() -> None:
    si = find("smartphone-inc")
    assert si is not None
    after = {
        "round": 2,
        "phase": "planning",
        "players": {"ann": {"vp": 20}, "bob": {"vp": 9}},
        "last_round": {"round": 1, "control": {"europe": {"ann": 3}, "china": {"ann": 1, "bob": 2}}, "vp": {"ann": 12, "bob": 7}},
    }
    text = si.round_results(1, {"ann": 6, "bob": 2}, after, names)
    assert text is not None
    lines = text.splitlines()
    assert lines[1] == "**Ann**: +14 VP (control of regions +4, sales +8, other +2) → 20 VP"
    assert lines[2] == "**Bob**: +7 VP (control of regions +2, sales +5) → 9 VP"
    sales = {"round": 1, "phase": "vp", "players": {"ann": {"vp": 6, "goods": 3}, "bob": {"vp": 2, "goods": 1}}}
    [(name, view)] = si.round_pictures([{"round": 1, "phase": "selling"}, sales, after])
    assert name == "round-1-sales.png"
    assert {s: p["vp"] for s, p in view["players"].items()} == {"ann": 20, "bob": 9}
    assert view["players"]["ann"]["goods"] == 3 and sales["players"]["ann"]["vp"] == 6  # the input is untouched
