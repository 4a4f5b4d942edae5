"""The compact picture of a decision (issue 7, "Pictures for phones"): at most 800 px
wide, no text under 20 px, only what the decision needs, and never another seat's
secret. Reference pictures as in test_render_reference.py; after a deliberate change::

    RENDER_REGEN=1 .venv/bin/python -m pytest tests/test_render_compact.py -q

rewrites tests/reference/compact-*.{json,png} and docs/compact-*.png (look at them).
"""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw

import render
from engine import get_game
from engine.simulate import play_game
from engine.smartphone_inc import logistics as engine_logistics
from engine.smartphone_inc import research as engine_research
from engine.smartphone_inc import retailers as engine_retailers
from engine.smartphone_inc.data import REGIONS
from render.smartphone_inc import compact
from render.smartphone_inc import theme as t
from tests.test_render_reference import difference  # the same tolerance as the board
from tests.test_render_smartphone import two_plans

GAME = "smartphone-inc"
G = get_game(GAME)
ROOT = Path(__file__).resolve().parent.parent
REF = ROOT / "tests" / "reference"
DOCS = ROOT / "docs"
REGEN = os.environ.get("RENDER_REGEN") == "1"
MAX_WIDTH = 800
MIN_TEXT = 20  # px: the height of the glyphs "Hg" of the smallest text drawn

# the prompt kinds a decision can have (the engine's prompt types, and the kinds of
# Retailer bonus, which each draw something else)
KINDS = {
    "plan", "improvement", "research", "logistics", "sell", "wifi", "nfc", "gamepad_office",
    "retailer_bonus-goods", "retailer_bonus-progress", "retailer_bonus-price",
    "retailer_bonus-second_office", "retailer_bonus-move_office",
}


def kind_of(prompt: dict[str, Any]) -> str:
    k = str(prompt["type"])
    return f"{k}-{prompt['bonus']['kind']}" if k == "retailer_bonus" else k


def glyph_height(size: int, bold: bool) -> int:
    """The rendered height of "Hg" (cap top to descender bottom) at ``size``."""
    im = Image.new("L", (8 * size, 3 * size), 0)
    ImageDraw.Draw(im).text((size, size // 2), "Hg", font=t.font(size, bold), fill=255)
    box = im.getbbox()
    assert box is not None
    return box[3] - box[1]


def check(view: dict[str, Any]) -> Image.Image:
    """Draw; the width and the smallest text are within the bars."""
    cv = compact.render(view)
    assert cv.width <= MAX_WIDTH
    assert cv.sizes, "no text drawn"
    smallest = min(min(glyph_height(s, False), glyph_height(s, True)) for s in cv.sizes)
    assert smallest >= MIN_TEXT, f"text of {min(cv.sizes)} px: glyphs {smallest} px high"
    im = render.draw_compact(GAME, view)
    assert im.width <= MAX_WIDTH and im.height == cv.height
    assert len(render.png_bytes(im)) <= 400 * 1024
    return im


# --- every prompt kind ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def views_by_kind() -> dict[str, dict[str, Any]]:
    """The first view of each prompt kind met in whole games (random and greedy play),
    and, for the kinds those games did not reach, a view of the game with that prompt as
    the engine builds it (Wi-Fi, Gamepad, the rarer Retailer bonuses)."""
    found: dict[str, dict[str, Any]] = {}
    last: list[dict[str, Any]] = []

    def on_state(s: dict[str, Any]) -> None:
        for seat, p in G.pending(s).items():
            found.setdefault(kind_of(p), G.view(s, seat))
        # the last Selling state of the first round from 3 on with Selling (the games'
        # paths move with the players' rules: greedy plans count by the rules version)
        if s["round"] >= 3 and s["phase"] == "selling" and (not last or last[0]["round"] == s["round"]):
            last[:] = [s]

    play_game(GAME, ["ann", "bob", "cid"], 1, {}, kind="random", on_state=on_state)
    play_game(GAME, ["ann", "bob", "cid", "dan"], 6, {}, kind="greedy", on_state=on_state)
    assert {"plan", "improvement", "research", "logistics", "sell"} <= set(found)
    state = last[0]
    seat = next(s for s in state["seats"] if state["regions"] and any(
        s in r["offices"] for r in state["regions"].values()))
    base = G.view(state, seat)
    small = [r for r in state["regions"] if REGIONS[r]["size"] == "S"]  # this board's regions
    made = {
        "wifi": {"type": "wifi", "regions": engine_logistics.second_office_choices(state, seat) or small[:2]},
        "nfc": {"type": "nfc", "max": 3, "price": base["players"][seat]["price"]},
        "gamepad_office": {"type": "gamepad_office", "regions": small},
    }
    rid = next(r for r, reg in state["regions"].items() if reg["retailer"] is not None)
    for kind, extra in (
        ("goods", {}),
        ("progress", {"techs": engine_research.open_techs(state, seat)}),
        ("price", {}),
        ("second_office", {"regions": engine_logistics.second_office_choices(state, seat) or small[:1]}),
        ("move_office", {"moves": engine_retailers.move_choices(state, seat)}),
    ):
        bonus = {"kind": kind, "n": 2} if kind in ("goods", "progress") else {"kind": kind}
        made[f"retailer_bonus-{kind}"] = {"type": "retailer_bonus", "region": rid, "bonus": bonus, **extra}
    for k, p in made.items():
        found.setdefault(k, {**base, "prompt": p})
    return found


def test_every_prompt_kind_is_drawn_within_the_bars(views_by_kind: dict[str, dict[str, Any]]) -> None:
    assert KINDS <= set(views_by_kind), KINDS - set(views_by_kind)
    heights = {}
    for kind, view in sorted(views_by_kind.items()):
        heights[kind] = check(view).height
    assert len(set(heights.values())) > 3  # each kind draws its own section


def test_every_state_of_a_random_game_with_a_prompt_is_drawn() -> None:
    """Every decision of every seat in a whole random game (with Steve) draws."""
    n = 0

    def on_state(s: dict[str, Any]) -> None:
        nonlocal n
        for seat in G.pending(s):
            im = render.draw_compact(GAME, G.view(s, seat))
            assert im.width <= MAX_WIDTH
            n += 1

    play_game(GAME, ["ann", "bob", "steve"], 3, {"automata": ["steve"]}, kind="random", on_state=on_state)
    assert n > 30


def test_no_prompt_and_the_game_over_draw() -> None:
    final, _, _ = play_game(GAME, ["ann", "bob"], 4, {}, kind="greedy")
    check(G.view(final, "ann"))
    state = G.setup(["ann", "bob"], 5, {})
    state = G.apply(state, "ann", G.legal_actions(state, "ann")[0])
    check(G.view(state, "ann"))  # sealed: waiting for bob, the own plan drawn


def test_the_smallest_text_size_is_measured() -> None:
    """The bar is real: the smallest size in use makes 20 px glyphs, a smaller one would not."""
    assert glyph_height(compact.SMALL, False) >= MIN_TEXT
    assert glyph_height(16, False) < MIN_TEXT


def test_a_public_view_is_refused() -> None:
    with pytest.raises(ValueError):
        render.draw_compact(GAME, G.view(G.setup(["ann", "bob"], 7, {}), None))


def test_long_names_fit() -> None:
    seats = ["a-very-long-player-name-that-goes-on", "Zoë ☕", "x"]
    state = G.setup(seats, 39, {})
    for seat in seats[:2]:
        check(G.view(state, seat))


# --- secrets -----------------------------------------------------------------------------------


def png(view: dict[str, Any]) -> bytes:
    return render.png_bytes(render.draw_compact(GAME, view))


@pytest.mark.parametrize("viewer_sealed", [False, True])
def test_another_seats_sealed_plan_never_changes_the_picture(viewer_sealed: bool) -> None:
    state = G.setup(["ann", "bob", "cid"], 34, {})
    if viewer_sealed:  # ann's own sealed plan is drawn; bob's must not be
        state = G.apply(state, "ann", G.legal_actions(state, "ann")[-1])
    plan_a, plan_b = two_plans(state, "bob")
    s1, s2 = G.apply(state, "bob", plan_a), G.apply(state, "bob", plan_b)
    assert s1["players"]["bob"]["plan"] != s2["players"]["bob"]["plan"] and G.pending(s1)
    for viewer in ("ann", "cid"):
        assert png(G.view(s1, viewer)) == png(G.view(s2, viewer)), viewer


def test_the_hidden_pile_never_changes_the_picture() -> None:
    found: list[dict[str, Any]] = []

    def on_state(s: dict[str, Any]) -> None:
        if not found and any(p["type"] == "improvement" for p in G.pending(s).values()):
            found.append(s)

    play_game(GAME, ["ann", "bob"], 8, {}, kind="greedy", on_state=on_state)
    s1 = found[0]
    seat = next(iter(G.pending(s1)))
    s2 = copy.deepcopy(s1)
    s2["pile"] = list(reversed(s2["pile"]))
    assert s1["pile"] != s2["pile"]
    assert png(G.view(s1, seat)) == png(G.view(s2, seat))
    # sensitive: the Block (public) does change it
    s3 = copy.deepcopy(s1)
    s3["block"] = list(reversed(s3["block"]))
    assert png(G.view(s3, seat)) != png(G.view(s1, seat))


# --- reference pictures ------------------------------------------------------------------------

CASES = ("plan", "improvement", "research", "logistics", "sell", "retailer_bonus-progress")
DOC_CASES = ("plan", "research", "sell")


def _build_views() -> dict[str, dict[str, Any]]:
    """ann's first view of each kind in a greedy 4-player game with Steve (Planning: the
    first of round 3, when she has more Improvements)."""
    out: dict[str, dict[str, Any]] = {}

    def on_state(s: dict[str, Any]) -> None:
        p = G.pending(s).get("ann")
        if p is not None and kind_of(p) in CASES and (p["type"] != "plan" or s["round"] >= 3):
            out.setdefault(kind_of(p), G.view(s, "ann"))  # Planning in round 3: more Improvements
    play_game(GAME, ["ann", "bob", "cid", "steve"], 11, {"automata": ["steve"]}, kind="greedy", on_state=on_state)
    for seed in (12, 13, 14):
        if set(CASES) <= set(out):
            break
        play_game(GAME, ["ann", "bob", "cid"], seed, {}, kind="greedy", on_state=on_state)
    return out


@pytest.fixture(scope="module")
def regenerated() -> None:
    if not REGEN:
        return
    views = _build_views()
    for name in CASES:
        (REF / f"compact-{name}.json").write_text(json.dumps({"view": views[name]}, indent=1) + "\n", "utf-8")
        im = render.draw_compact(GAME, views[name])
        im.save(REF / f"compact-{name}.png", optimize=True)
        if name in DOC_CASES:
            im.save(DOCS / f"compact-{name}.png", optimize=True)


@pytest.mark.parametrize("name", CASES)
def test_reference_picture(name: str, regenerated: None) -> None:
    png_path = REF / f"compact-{name}.png"
    assert png_path.exists(), f"missing {png_path}; run with RENDER_REGEN=1"
    view = json.loads((REF / f"compact-{name}.json").read_text("utf-8"))["view"]
    got = check(view)
    want = Image.open(png_path)
    assert got.size == want.size, f"{name}: size {got.size} != reference {want.size}"
    total, tile = difference(got, want)
    assert total <= 0.005 and tile <= 0.10, f"{name}: {total:.2%} differ, worst tile {tile:.0%}"


def test_docs_show_the_compact_pictures() -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    for name in DOC_CASES:
        assert (DOCS / f"compact-{name}.png").exists()
        assert f"docs/compact-{name}.png" in readme


def test_a_tall_picture_is_drawn_again_on_a_higher_canvas() -> None:
    view = json.loads((REF / "compact-sell.json").read_text("utf-8"))["view"]
    full = compact.render(view)
    short = compact.render(view, room=200)
    assert short.height == full.height > 200
    assert short.finish(short.height).tobytes() == full.finish(full.height).tobytes()


def test_pale_buyers_follow_the_engines_rule_SI_SELL_03() -> None:
    """SI-SELL-03/04: the picture's "would buy from you" is the engine's own rule."""
    from engine.smartphone_inc import selling

    techs_sets = ([], ["gps"], ["nfc", "4g"], ["wi-fi", "li-ion", "gamepad"])
    for reg in REGIONS.values():
        for buyer in reg["buyers"]:
            for price in range(1, 9):
                for techs in techs_sets:
                    me = {"price": price, "techs": techs}
                    assert compact.willing(me, buyer) == selling.willing({"players": {"x": me}}, "x", buyer)
