"""Reference pictures: stored views are drawn and compared with stored PNGs, with a
pixel tolerance (anti-aliasing may differ slightly between FreeType builds).

The views are stored too (tests/reference/*.json), so these tests check the renderer
alone, whatever the engine does meanwhile. After a deliberate change of the pictures,
regenerate views, PNGs and the pictures in docs/ with::

    RENDER_REGEN=1 .venv/bin/python -m pytest tests/test_render_reference.py -q

and look at the new PNGs before committing them.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

import render

ROOT = Path(__file__).resolve().parent.parent
REF = ROOT / "tests" / "reference"
DOCS = ROOT / "docs"
GAME = "smartphone-inc"
REGEN = os.environ.get("RENDER_REGEN") == "1"

# A pixel "differs" when a channel is off by more than CHANNEL_TOL. A picture matches
# when at most MAX_DIFF_FRACTION of all its pixels differ and no TILE x TILE tile has
# more than MAX_TILE_FRACTION of its pixels differing: scattered anti-aliasing noise
# passes, a changed digit or token (concentrated in a tile) does not.
CHANNEL_TOL = 48
MAX_DIFF_FRACTION = 0.005
TILE = 16
MAX_TILE_FRACTION = 0.10

CASES = (
    "board-start",
    "board-round3",
    "board-end-5p",
    "private-planning",
    "private-sell",
    "plan-preview",
)


def _build_views() -> dict[str, dict[str, Any]]:
    """Play the reference games (only when regenerating: greedy play takes seconds)."""
    from engine import get_game
    from engine.simulate import play_game
    from engine.smartphone_inc import decisions

    g = get_game(GAME)
    out: dict[str, dict[str, Any]] = {}
    out["board-start"] = {"view": g.view(g.setup(["ann", "bob", "cid"], 1, {}), None)}

    seats = ["ann", "bob", "cid", "steve"]
    opts = {"automata": ["steve"]}
    last_r3: list[Any] = []
    plan_state: list[Any] = []
    sell_state: list[Any] = []

    def on_state(s: dict[str, Any]) -> None:
        if s["round"] == 3 and s["phase"] != "planning":
            last_r3[:] = [s]
        if (
            s["round"] == 2
            and s["phase"] == "planning"
            and s["players"]["ann"]["plan"]
            and g.pending(s)
        ):
            plan_state[:] = plan_state or [s]
        if "ann" in g.pending(s) and g.pending(s)["ann"]["type"] == "sell" and not sell_state:
            sell_state.append(s)

    play_game(GAME, seats, 11, opts, kind="greedy", on_state=on_state)
    out["board-round3"] = {"view": end_of_selling(last_r3[0])}
    out["private-planning"] = {"view": g.view(plan_state[0], "ann")}
    out["private-sell"] = {"view": g.view(sell_state[0], "ann")}
    pv = g.view(g.setup(seats, 11, opts), "bob")
    plan = decisions.sample_plans(pv["prompt"]["improvements"], False, 8, salt=3)[-1]
    out["plan-preview"] = {"view": pv, "plan": plan}
    final, _, _ = play_game(GAME, ["ann", "bob", "cid", "dan", "eve"], 5, {}, kind="greedy")
    out["board-end-5p"] = {"view": g.view(final, None)}
    return out


def end_of_selling(state: dict[str, Any]) -> dict[str, Any]:
    """The board when round 3's Selling is over (every sale on the map): the start of
    Phase 8, as ``game.trace`` reports it to the bot (``apply`` runs on into round 4)."""
    import copy

    from engine import get_game
    from engine.ai import choose
    from engine.smartphone_inc import flow

    g = get_game(GAME)
    s = copy.deepcopy(state)
    while s["phase"] == "selling" and flow.pending(s):
        seat = sorted(flow.pending(s))[0]
        flow.act(s, seat, choose(GAME, s, seat, "greedy"))
        s["version"] += 1
        flow.run(s, until="vp")
    assert s["phase"] == "vp", s["phase"]
    return g.view(s, None)


def draw_case(case: dict[str, Any]) -> Image.Image:
    if "plan" in case:
        return render.draw_plan(GAME, case["view"], case["plan"])
    return render.draw(GAME, case["view"])


def load_case(name: str) -> dict[str, Any]:
    return json.loads((REF / f"{name}.json").read_text("utf-8"))


@pytest.fixture(scope="module")
def regenerated() -> None:
    if not REGEN:
        return
    REF.mkdir(parents=True, exist_ok=True)
    for name, case in _build_views().items():
        (REF / f"{name}.json").write_text(json.dumps(case, indent=1) + "\n", "utf-8")
        draw_case(case).save(REF / f"{name}.png", optimize=True)
    DOCS.mkdir(exist_ok=True)
    for name in ("board-start", "board-round3"):
        draw_case(load_case(name)).save(DOCS / f"{name}.png", optimize=True)


def difference(a: Image.Image, b: Image.Image) -> tuple[float, float]:
    """(fraction of differing pixels, worst fraction in one tile)."""
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    worst = diff.split()[0]
    for band in diff.split()[1:]:
        worst = ImageChops.lighter(worst, band)
    mask = worst.point(lambda v: 255 if v > CHANNEL_TOL else 0)
    total = mask.histogram()[255] / (a.width * a.height)
    tiles = mask.reduce(TILE)
    return total, tiles.getextrema()[1] / 255


def assert_like_reference(name: str, got: Image.Image) -> None:
    """``got`` is the reference picture ``name`` (tests/reference/<name>.png) within the
    tolerance above: the same size, few pixels differing, no tile much changed."""
    png = REF / f"{name}.png"
    assert png.exists(), f"missing {png}; run with RENDER_REGEN=1"
    want = Image.open(png)
    assert got.size == want.size, f"{name}: size {got.size} != reference {want.size}"
    total, tile = difference(got, want)
    assert total <= MAX_DIFF_FRACTION, f"{name}: {total:.2%} of pixels differ from the reference"
    assert tile <= MAX_TILE_FRACTION, (
        f"{name}: a {TILE}px tile differs by {tile:.0%} from the reference (channel tolerance {CHANNEL_TOL})"
    )


@pytest.mark.parametrize("name", CASES)
def test_reference_picture(name: str, regenerated: None) -> None:
    assert_like_reference(name, draw_case(load_case(name)))


def test_tolerance_catches_a_real_change() -> None:
    """The comparison is not blind: a changed price on the board is caught."""
    case = load_case("board-round3")
    want = Image.open(REF / "board-round3.png")
    seat = case["view"]["seats"][0]
    case["view"]["players"][seat]["price"] += 1
    got = draw_case(case)
    assert got.size == want.size
    total, tile = difference(got, want)
    assert total <= MAX_DIFF_FRACTION  # a one-digit change is small overall...
    assert tile > MAX_TILE_FRACTION  # ...but concentrated, so the tile check fails it


def test_docs_pictures_exist() -> None:
    for name in ("board-start", "board-round3"):
        assert (DOCS / f"{name}.png").exists()
