"""Playtest of Mobile Markets as a newcomer on a phone: what was found by playing whole
games through the fake Discord (each fix with its test here), and the whole-game
playthroughs that check what a player relies on (tests at the end of the file)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot import games
from engine import get_game
from tests.test_mm_bot import played_states
from tests.test_words import internal_ids

G = get_game("mobile-markets")
P = games.presenter("mobile-markets")


@pytest.fixture(scope="module")
def states() -> list[dict[str, Any]]:
    return played_states(["ann", "bob", "steve"], 8, {"automata": ["steve"], "difficulty": "medium"})


def test_the_price_step_of_the_planner_counts_one_plan_in_the_singular(states: list[dict[str, Any]]) -> None:
    """The price +3 row of round 1 read "1 plans: up to …"."""
    view = G.view(states[0], "ann")
    b = P.secret_builder(view["prompt"])
    ctx = b.context(view["prompt"], view, "ann")
    descs = [c.description for c in b.choices(b.decode(None), ctx)]
    assert any(d.startswith("1 plan:") for d in descs), descs
    assert not any(d.startswith("1 plans") for d in descs)


def test_the_product_builder_opens_fresh_after_the_rounds_plan(states: list[dict[str, Any]]) -> None:
    """Both secret decisions of a round share one draft row (its key is the round): the
    product builder read the plan's draft "p3.c55" as "placing card 55", and opened
    with the placeholder "Which slot?" over a list of cards to place."""
    plan_b = P.secret_builder({"type": "plan"})
    plan_view = G.view(states[0], "ann")
    plan_ctx = plan_b.context(plan_view["prompt"], plan_view, "ann")
    s, seat = next((s, seat) for s in states for seat, p in G.pending(s).items() if p["type"] == "product")
    view = G.view(s, seat)
    b = P.secret_builder(view["prompt"])
    ctx = b.context(view["prompt"], view, seat)
    for i, choice in enumerate(plan_ctx.choices):
        plan_code = plan_b.encode(plan_b.step(plan_b.step(plan_b.decode(None), plan_ctx, "select", f"p{choice['price']}"), plan_ctx, "select", f"c{i}"))
        d = b.decode(plan_code)
        assert d == b.decode(None), plan_code
        assert b.placeholder(d) == "Place a Feature card (or sell as it is)"
    # a product draft still reads back as itself
    d = b.step(b.decode(None), ctx, "select", "c0")
    assert b.decode(b.encode(d)) == d and b.placeholder(d) == "Which slot?"


def test_each_card_to_buy_shows_its_cost_and_effect_in_the_select(states: list[dict[str, Any]]) -> None:
    """Two Feature cards with the same icons and different costs both read "buy Feature
    (Flexible Display)", and a Technology or Marketing card showed its name only: the
    option now says what it costs, why that differs from the printed cost, and (its
    description) what it does (MM-TECH, MM-MKT); the card by its title, never its number."""
    from engine.mobile_markets.data import CARDS

    seen = {"technology": 0, "marketing": 0, "effect": 0, "discount": 0}
    for s in states:
        for seat, prompt in G.pending(s).items():
            if prompt["type"] not in ("technology", "marketing"):
                continue
            view = G.view(s, seat)
            said = P.action_words(view)
            costs = {o["card"]: o for o in view["prompt"].get("offers") or []}
            for a in G.legal_actions(s, seat):
                label = said.describe_action(a)
                assert len(label) <= 100 and not internal_ids([label]), label
                if a["type"] == "buy":
                    o, card = costs[a["card"]], CARDS[a["card"]]
                    assert a["card"] not in label, label
                    if o["cost"] == card["cost"]:  # (a look-alike at another printed cost: says so)
                        assert label.endswith(f" · cost {o['cost']}") or re.search(
                            rf" · cost {o['cost']} \(printed {o['cost']}, the other( card alike)? is printed [\d or]+\)$", label
                        ), label
                    else:
                        assert f" · cost {o['cost']} (printed {card['cost']}, " in label, label
                        assert ("−1 Discount token" in label) == o["discount"], label
                        seen["discount"] += 1
                    text_ = card.get("text")
                    if a["card"][0] in "TM" and text_:
                        detail = said.describe_detail(a)
                        assert len(detail) <= 100 and detail[:12] == text_[:12], detail
                        seen["effect"] += 1
                    seen[prompt["type"]] += 1
    assert all(seen.values()), seen


def test_the_solo_game_seals_one_plan_not_all_1_plans() -> None:
    """The status message of the solo game read "🔓 All 1 plans sealed — revealed below."."""
    assert P.sealed_done({}, 1) == "🔓 Your plan is sealed — revealed below."
    assert P.sealed_done({}, 3) == "🔓 All 3 plans sealed — revealed below."


def test_the_board_says_which_company_is_whose(states: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch) -> None:
    """The channel's texts name players ("Ann buys …"), the board named companies only
    ("Atlantis", "Sun Tech"): nobody could tell which company was theirs or Bob's. Each
    company's panel now names its player, the turn order and final line name players."""
    import render
    from tests.render_support import record_texts

    drawn = record_texts(monkeypatch)
    s = next(s for s in states if s["phase"] == "technology")
    view = G.view(s, None)
    render.draw("mobile-markets", view)
    for seat in view["seats"]:
        p = view["players"][seat]
        who = "Steve Jr." if p["steve"] else seat
        assert any(t.startswith(p["company"]) and who in t for t in drawn), (seat, drawn)
    order = next(t for t in drawn if t.startswith("Turn order: "))
    assert all(("Steve Jr." if view["players"][s_]["steve"] else s_) in order for s_ in view["order"]), order
    drawn.clear()
    render.draw("mobile-markets", G.view(states[-1], None))
    final = next(t for t in drawn if t.startswith("Final: "))
    assert "ann" in final and "Steve Jr." in final, final


def test_steve_jrs_goods_read_as_a_number_not_0_times_round() -> None:
    """Steve Jr.'s panel read "Goods 6 + 0×round"; his Production Row is worked out for
    the round (MM-SOLO: "produces Goods based on the production formula")."""
    from render.mobile_markets.board import rows_text

    assert "Goods 6 + Event Goods" in rows_text({"production": {"base": 6, "round": 0}}, 3)
    assert "Goods 8 (5 + 1 × round 3) + Event Goods" in rows_text({"production": {"base": 5, "round": 1}}, 3)
    assert "×round" not in rows_text({"production": {"base": 5, "round": 1}}, 3)


def test_marketing_with_no_campaign_to_buy_says_only_what_is_left(states: list[dict[str, Any]]) -> None:
    """After a campaign was bought the prompt still read "(at most 1 campaign; …); no card
    you can afford": now it says each point left takes a Private Customer (MM-MKT)."""
    seen = 0
    for s in states:
        for prompt in G.pending(s).values():
            if prompt["type"] == "marketing" and not prompt["place"] and not prompt["offers"]:
                said = P.describe_prompt(prompt)
                assert said.startswith(f"Marketing: {prompt['points']} Marketing Point"), said
                assert "each takes a Private Customer from the deck you choose" in said and "Regular" in said
                assert "at most 1 campaign" not in said and "afford" not in said
                seen += 1
    assert seen


# ------------------------------------------------------------------ whole games through Discord

# Clicks a newcomer makes per kind of turn (a slash command, a button, a choice in a select
# each count one), measured by the playthroughs below:
#   Planning: 4 (the price change, what the plan gives, Seal, Yes seal), from the DM;
#   Technology / Marketing: 1 (Open my turn) + 2 per card or Private Customer (the select,
#     Confirm) + 2 to finish the turn while points are left;
#   Sales (the product): 1 (Open my turn) + 2 per Feature card placed (the card, its
#     slot) + 2 (Build and sell, Yes).
PLANNING_CLICKS = 4
# How long a playthrough waits for the bot's next message: only a guard against a prompt
# that never comes, never a measure of speed. The first planner comes after the bot's
# cold start (its picture workers started, the desk drawn): 6-9.5 s on 2 busy cores
# (load 12-14), and the 10 s it was given failed 1 run in 5 of this file and its
# neighbours (issue 34 §3).
WAIT = 60.0
PER_ACTION = 2  # a choice in the select and Confirm
PRODUCT_BASE = 3  # Open my turn, Build and sell, Yes


async def _answer(fake: Any, user: dict, msg: dict, rng: Any, log: list[tuple[str, int, int]]) -> None:
    """Answer an opened turn; log (kind, clicks, actions or cards placed)."""
    from tests import playtest_support as ps

    clicks, actions = 1, 0  # the "Open my turn" already pressed
    if ps.can(msg, "Build and sell"):
        for _ in range(rng.randrange(3)):
            cards = [o for o in ps.options(msg) if o["value"].startswith("c")]
            if not cards:
                break
            ix = await fake.click(user, msg, ps.select(msg)["custom_id"], values=[rng.choice(cards)["value"]])
            msg = ix.original
            slots = [o for o in ps.options(msg) if o["value"].startswith("s")]
            assert slots and all("per sale" in (o.get("description") or "") for o in slots)  # the live preview
            ix = await fake.click(user, msg, ps.select(msg)["custom_id"], values=[rng.choice(slots)["value"]])
            msg = ix.original
            clicks, actions = clicks + 2, actions + 1
        assert "Money from sales" in ps.message_text(msg)
        ix = await fake.click(user, msg, "Build and sell")
        assert "cannot be taken back" in ix.all_text()
        ix = await fake.click(user, ix.original, "Yes: Build and sell")
        clicks += 2
        done = ix.all_text()
        assert "in sale order" in done or "Nobody would buy" in done, done
        log.append(("sales", clicks, actions))
        return
    kind = "technology" if "Technology Point" in ps.message_text(msg) else "marketing"
    for _ in range(30):
        while not ps.can(msg, "Confirm"):
            opts = ps.options(msg)
            assert opts, ps.message_text(msg)
            ix = await fake.click(user, msg, ps.select(msg)["custom_id"], values=[opts[rng.randrange(len(opts))]["value"]])
            msg = ix.original
            clicks += 1
        ix = await fake.click(user, msg, "Confirm")
        msg = ix.original
        clicks, actions = clicks + 1, actions + 1
        assert "Done:" in ps.message_text(msg)
        if ps.select(msg) is None:
            log.append((kind, clicks, actions))
            return
    raise AssertionError("a turn that never ends")


async def play_whole_game(fake: Any, tmp_path: Any, humans: int, steve: bool, seed: int) -> dict[str, Any]:
    """A whole game through the fake Discord; returns what the checks need."""
    import asyncio
    import random

    from tests import playtest_support as ps
    from tests.discord_support import running
    from tests.fake_discord import EPHEMERAL, message_text

    rng = random.Random(seed)
    users = [fake.add_member(n) for n in ("ann", "bob", "cid", "dee")[:humans]]
    ann = users[0]
    log: list[tuple[str, int, int]] = []
    plans: dict[int, dict[str, str]] = {}
    async with running(fake, str(tmp_path / "mm.db")) as bot:
        ix = await fake.slash(ann, "game new", {"game": "mobile-markets", "options": "difficulty=medium"})
        lobby = ix.original
        for u in users[1:]:
            await fake.click(u, lobby, "Join")
        if steve:
            ix = await fake.click(ann, lobby, "Add AI")
            await fake.click(ann, ix.original, "br:ai:", values=["steve"])
        await fake.click(ann, lobby, "Start")
        used: set[str] = set()
        for rnd in range(1, 6):
            since = len(fake.public_messages())
            dm_floor = max((int(m["id"]) for u in users for m in fake.dm_messages(u)), default=0)
            plans[rnd] = {}
            for u in users:
                msg = await fake.wait_for(
                    lambda u=u, rnd=rnd: next((m for m in reversed(fake.dm_messages(u)) if f"round {rnd} (game" in message_text(m)), None),
                    WAIT, what=f"the round {rnd} planner",
                )
                assert msg["attachments"], "the planner DM shows the desk"
                prices = ps.options(msg)
                ix = await fake.click(u, msg, ps.select(msg)["custom_id"], values=[rng.choice(prices)["value"]])
                ix = await fake.click(u, ix.original, ps.select(ix.original)["custom_id"], values=[ps.options(ix.original)[0]["value"]])
                shown = message_text(ix.original)
                plans[rnd][u["username"]] = shown[shown.index("**") : shown.index("**", shown.index("**") + 2) + 2]
                ix = await fake.click(u, ix.original, "Seal")
                ix = await fake.click(u, ix.original, "Yes, seal")
                assert "Plan sealed" in ix.all_text()
                log.append(("planning", PLANNING_CLICKS, 1))
            until = f"Round {rnd + 1} · Planning" if rnd < 5 else "Game over"

            def ready(since: int = since, dm_floor: int = dm_floor, until: str = until) -> Any:
                if any(until in message_text(m) for m in fake.public_messages()[since:]):
                    return "done"
                dms_ok = [m for u in users for m in fake.dm_messages(u) if "You are the last one" in message_text(m)]
                used.update(m["id"] for m in dms_ok)
                return ps.turn_prompt(fake, users, used, since, dm_floor)

            for _ in range(200):
                found = await fake.wait_for(ready, WAIT, what=f"a turn or {until!r}")
                if found == "done":
                    break
                m, u = found
                used.add(m["id"])
                ix = await fake.click(u, m, "Open my turn")
                # privately: an ephemeral reply in the channel; a "your move" DM becomes the turn itself
                assert ix.callback_data.get("flags", 0) & EPHEMERAL or m["channel_id"] != fake.channel_id
                opened = ix.followups[-1] if ix.followups else ix.original
                await _answer(fake, u, opened, rng, log)
            else:
                raise AssertionError(f"never reached {until!r}")
        await fake.idle()
        assert (await bot.app.info(1)).status == "finished"
        await asyncio.sleep(0)
    return {"users": users, "log": log, "plans": plans}


def _check_game(fake: Any, played: dict[str, Any], seats: int) -> dict[str, Any]:
    import re

    from tests import playtest_support as ps
    from tests.test_words import assert_plain_words

    users, log = played["users"], played["log"]
    assert_plain_words(fake)  # no internal id in anything a player read
    assert not ps.trouble(fake), ps.trouble(fake)  # no "Sorry", "went wrong", no trace
    everything = ps.text_of_all(fake)
    assert not re.search(r"\b1 (?:plans|players|Stars|cards|Goods sold x)\b", everything)
    # a product cannot be taken back: its sealed message does not offer it
    products = [e["text"] for e in ps.transcript(fake) if "Product sealed" in e["text"]]
    assert products and not any("Take it back" in t for t in products), products[:1]
    # each player is mentioned at most once per phase; every phase posts its picture
    phases = ps.posts_per_phase(fake)
    headed = {k: v for k, v in phases.items() if k != "lobby"}
    assert len([k for k in headed if k.endswith("results")]) == 5 and "Game over" in headed
    for phase, t in headed.items():
        assert all(n <= 1 for n in t["mentions"].values()), (phase, dict(t["mentions"]))
        assert t["files"], f"{phase} posted no picture"
        if phase.endswith(" results"):
            assert any(f.endswith("-sales.png") for f in t["files"]), t["files"]
    # no plan is public before the reveal of its round
    for rnd, sealed in played["plans"].items():
        before = []
        for m in fake.public_messages():
            txt = ps.message_text(m)
            if f"Round {rnd} · Technology" in txt:
                break
            before.append(txt)
        for plan in sealed.values():
            assert plan not in "\n".join(before[-3:])
    # clicks per turn within the bounds stated above
    kinds: dict[str, list[int]] = {}
    for kind, clicks, actions in log:
        kinds.setdefault(kind, []).append(clicks)
        if kind == "planning":
            assert clicks == PLANNING_CLICKS
        elif kind == "sales":
            assert clicks == PRODUCT_BASE + PER_ACTION * actions
        else:
            assert clicks == 1 + PER_ACTION * actions
    assert len(kinds["planning"]) == 5 * len(users) and len(kinds["sales"]) == 5 * len(users)
    assert kinds.get("technology") and kinds.get("marketing")
    # every picture is at most 1200 px wide (the board) and the private ones 800 (phone)
    from tests.discord_support import png_size

    for ch, name, data in fake.files_sent():
        width = png_size(data)[0]
        assert width <= (1200 if ch == fake.channel_id else 800), (name, width)
    return {k: (min(v), max(v), round(sum(v) / len(v), 1), len(v)) for k, v in kinds.items()}


@pytest.fixture
async def fake() -> Any:
    from tests.fake_discord import FakeDiscord

    async with FakeDiscord() as f:
        yield f
        f.assert_clean()


@pytest.mark.parametrize(("humans", "steve"), [(1, True), (2, False), (3, True)])
async def test_a_whole_game_as_a_newcomer_on_a_phone(fake: Any, tmp_path: Any, humans: int, steve: bool, capsys: Any) -> None:
    """MM-SETUP (bot): the solo game against Steve Jr., 2 players, and 3 players with Steve
    Jr. (4 seats) play five rounds through Discord, each turn opened from its post or DM."""
    played = await play_whole_game(fake, tmp_path, humans, steve, seed=10 + humans)
    clicks = _check_game(fake, played, humans + steve)
    with capsys.disabled():
        print(f"\nMM CLICKS {humans}+{'Steve' if steve else '0'}: " + str(clicks))
