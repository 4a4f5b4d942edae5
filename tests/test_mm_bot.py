"""Mobile Markets in the bot: the presenter's lobby facts and options, its words (no
internal id), the plan-by-goal builder, the product builder and its live preview, the
demo."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from bot import games
from bot.demo import run_demo
from bot.games.mobile_markets import builders
from engine import get_game
from engine.ai import choose
from engine.mobile_markets import pads
from engine.mobile_markets.preview import preview_from_view
from engine.rng import Rng, initial_state
from tests.test_words import internal_ids

G = get_game("mobile-markets")
P = games.presenter("mobile-markets")


def played_states(seats: list[str], seed: int, options: dict[str, Any], kind: str = "greedy") -> list[dict[str, Any]]:
    s = G.setup(seats, seed, options)
    out = [s]
    while not G.is_over(s):
        seat = sorted(G.pending(s))[0]
        s = G.apply(s, seat, choose("mobile-markets", s, seat, kind))
        out.append(s)
    return out


@pytest.fixture(scope="module")
def states() -> list[dict[str, Any]]:
    return played_states(["ann", "bob", "steve"], 8, {"automata": ["steve"], "difficulty": "medium"}) + played_states(
        ["ann", "bob", "cid", "dan"], 9, {}, "random"
    )


# ------------------------------------------------------------------------------ lobby


def test_offered_with_its_lobby_facts() -> None:
    assert "mobile-markets" in games.names()
    assert P.title == "Mobile Markets" and (P.min_seats, P.max_seats) == (1, 4)
    steve = P.automaton("steve")
    assert steve is not None and steve.by_engine and "house rule" in steve.description
    assert P.parse_options("difficulty=hard") == {"difficulty": "hard"}
    with pytest.raises(ValueError, match="difficulty"):
        P.parse_options("difficulty=extreme")
    with pytest.raises(ValueError):
        P.parse_options("block_size=3")
    words = P.options_in_words({"difficulty": "medium"})
    assert any("medium" in w for w in words) and any("house rule" in w.lower() for w in words)
    assert [c.value for c in P.option_choices("diff")] == ["difficulty=easy", "difficulty=medium", "difficulty=hard"]


def test_rules_topics_cover_every_phase() -> None:
    for phase in ("preparation", "planning", "pricing", "technology", "marketing", "production", "sales", "profit", "over"):
        assert P.rules_text(None, phase).startswith("**")
    assert "8 / 4 / 2" in P.rules_text("profit")
    assert "Variety-seeking" in P.rules_text("sales")


# ------------------------------------------------------------------------------ words


def test_every_prompt_and_action_reads_without_ids(states: list[dict[str, Any]]) -> None:
    texts = []
    for s in states[::3]:
        for seat in G.pending(s):
            texts.append(P.describe_prompt(G.view(s, seat)["prompt"]))
            for a in G.legal_actions(s, seat)[:60]:
                texts.append(P.describe_action(a))
    assert texts and not internal_ids(texts)
    assert not any("{" in t or "_" in t for t in texts)


def test_technology_prompt_shows_points_progress_and_costs_after_discount(states: list[dict[str, Any]]) -> None:
    shown = 0
    for s in states:
        for prompt in G.pending(s).values():
            if prompt["type"] == "technology":
                words = P.describe_prompt(prompt)
                assert f"{prompt['points']} Technology Point" in words and f"{prompt['progress']} Progress token" in words
                # what to decide, not every card (issue 22: a 480-character sentence shown 3 times):
                # the select's options carry the cards, each with its cost after discount
                assert len(words) <= 160 and "points left become Progress tokens" in words, words
                from engine.mobile_markets.data import card_title

                assert not any(card_title(o["card"]) in words for o in prompt["offers"]), words
                shown += 1
            if prompt["type"] == "marketing" and not prompt["place"]:
                words = P.describe_prompt(prompt)
                assert f"{prompt['points']} Marketing Point" in words and "Regular" in words
    assert shown


# ------------------------------------------------------------------------------ plan


def test_plan_by_goal_reaches_every_distinct_plan(states: list[dict[str, Any]]) -> None:
    """MM-PLAN-04 (planner): each effect listed by the engine is reachable in two picks
    (price change, then what the plan gives), and the sealed plan gives exactly it."""
    view = G.view(states[0], "ann")
    b = P.secret_builder(view["prompt"])
    assert b is builders.PLANNER
    ctx = b.context(G.pending(states[0])["ann"], view, "ann")
    assert len(ctx.choices) == len(pads.distinct())
    reached = set()
    first = b.choices(b.decode(None), ctx)
    assert len(first) <= 25
    for price in first:
        d = b.step(b.decode(None), ctx, "select", price.value)
        d = b.decode(b.encode(d))
        opts = [c for c in b.choices(d, ctx) if not c.value.startswith("@")]
        pages = b.choices(b.step(d, ctx, "select", "@next"), ctx) if len(opts) >= 23 else []
        for c in opts + [c for c in pages if not c.value.startswith("@")]:
            done = b.step(d, ctx, "select", c.value)
            action = b.action(done, ctx)
            o = pads.evaluate(action["plan"])
            chosen = ctx.choices[int(c.value[1:])]
            got = (o["up"] - o["down"], o["tech"], o["mkt"], o["prod"] + o["covered"])
            assert got == (chosen["price"], chosen["tech"], chosen["mkt"], chosen["goods"])
            reached.add(got)
            assert b.preview(done, ctx) == action["plan"]
            assert "Your plan" in b.describe(done, ctx)
    assert len(reached) == len(ctx.choices)
    assert b.problem(b.decode(None), ctx) is not None and b.action(b.decode(None), ctx) is None
    G.apply(states[0], "ann", b.action(done, ctx))  # a legal plan


# ---------------------------------------------------------------------------- product


def test_product_builder_walks_to_legal_products_with_the_engines_preview(states: list[dict[str, Any]]) -> None:
    """MM-SALE-02..05 (builder): every slot offered shows the net profit and buyers the
    engine computes; the built action is legal and sells as previewed."""
    rnd = random.Random(4)
    checked = 0
    for s in states:
        for seat, prompt in G.pending(s).items():
            if prompt["type"] != "product":
                continue
            view = G.view(s, seat)
            b = P.secret_builder(prompt)
            assert b is builders.PRODUCT
            ctx = b.context(prompt, view, seat)
            d = b.decode(None)
            for _ in range(rnd.randrange(4)):
                places = [c for c in b.choices(d, ctx) if c.value.startswith("c")]
                if not places:
                    break
                d = b.step(d, ctx, "select", rnd.choice(places).value)
                for c in b.choices(d, ctx):
                    slot_d = b.step(d, ctx, "select", c.value)
                    pv = G.preview(s, seat, b.action(slot_d, ctx))
                    assert c.description.startswith(f"net {pv['net']} per sale × {len(pv['buyers'])} buyer")
                d = b.decode(b.encode(b.step(d, ctx, "select", rnd.choice(b.choices(d, ctx)).value)))
            action = b.action(d, ctx)
            pv = G.preview(s, seat, action)
            assert f"Net profit per sale {pv['net']}" in b.describe(d, ctx)
            assert preview_from_view(view, action) == pv
            after = G.apply(s, seat, action)
            n = len(pv["buyers"])
            assert any(line.startswith(f"{seat} sells {n} Good{'' if n == 1 else 's'} ") for line in G.events(after)), n
            checked += 1
            if d.placed:
                back = b.step(d, ctx, "back", "")
                assert len(back.placed) == len(d.placed) - 1
    assert checked >= 10


def test_preview_from_a_view_equals_the_engines(states: list[dict[str, Any]]) -> None:
    rng = Rng(initial_state(2))
    n = 0
    for s in states:
        for seat, prompt in G.pending(s).items():
            if prompt["type"] == "product":
                view = G.view(s, seat)
                for _ in range(5):
                    a = G.random_action(s, seat, rng)
                    assert preview_from_view(view, a) == G.preview(s, seat, a)
                    n += 1
    assert n


# ------------------------------------------------------------------------------ demo


async def test_mobile_markets_demo_end_to_end(tmp_path: Path) -> None:
    lines: list[str] = []
    result = await run_demo(game="mobile-markets", players=2, seed=5, db=tmp_path / "mm.db", renderer=None, echo=lines.append)
    assert json.loads(lines[-1]) == result
    assert sorted(s["rank"] for s in result["scores"]) == [1, 2]
    again: list[str] = []
    assert await run_demo(game="mobile-markets", players=2, seed=5, db=tmp_path / "mm.db", renderer=None, echo=again.append) == result
