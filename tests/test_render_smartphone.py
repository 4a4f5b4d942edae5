"""Smartphone Inc. pictures: every phase renders, pictures follow the state, secrets
stay secret, and the quality bars (size, width, file size) hold."""

from __future__ import annotations

import ast
import copy
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import render
from engine import IllegalAction, get_game
from engine.smartphone_inc import flow, pads
from engine.smartphone_inc.data import PHASE_TITLES, PHASES
from tests.render_support import first_states

GAME = "smartphone-inc"
G = get_game(GAME)
ROOT = Path(__file__).resolve().parent.parent


def walk_round(state: dict[str, Any]) -> list[dict[str, Any]]:
    """From a Planning state, the state at the start of each later phase of that round,
    including the automatic ones the engine never stops in (Prices, Production, VP):
    so the Selling results are on the map when Phase 8 starts."""
    s = copy.deepcopy(state)
    out = []
    for phase in PHASES[1:]:
        while s["phase"] not in (phase, "over"):
            pend = flow.pending(s)
            if pend:
                seat = sorted(pend)[0]
                flow.act(s, seat, G.legal_actions(s, seat)[0])
                s["version"] += 1
            flow.run(s, until=phase)
        out.append(copy.deepcopy(s))
    return out


def snapshots(seats: list[str], seed: int, options: dict[str, Any]) -> list[dict[str, Any]]:
    """The first state of every (round, phase) a random game stops in, every phase of
    rounds 1 and 3, and the end."""
    seen, final = first_states(GAME, seats, seed, options, setup_round=1)
    first = next(iter(seen.values()))  # the set-up
    walked = walk_round(first) + walk_round(seen[(3, "planning")])
    return list(seen.values()) + walked + [final]


GAMES = {
    "2p": (["ann", "bob"], 21, {}),
    "5p": (["ann", "bob", "cid", "dan", "eve"], 22, {}),
    "steve": (["ann", "bob", "steve"], 23, {"automata": ["steve"]}),
}


@pytest.fixture(scope="module", params=sorted(GAMES))
def game_states(request: pytest.FixtureRequest) -> list[dict[str, Any]]:
    seats, seed, options = GAMES[request.param]
    return snapshots(seats, seed, options)


def check_picture(im: Image.Image) -> None:
    assert isinstance(im, Image.Image)
    assert im.width >= 1200
    assert 600 <= im.height <= 4000


def test_every_phase_renders(game_states: list[dict[str, Any]]) -> None:
    phases = set()
    for i, state in enumerate(game_states):
        view = G.view(state, None)
        phases.add(view["phase"])
        check_picture(render.draw(GAME, view))
        # private pictures: every seat in the first snapshots, then two seats in turn
        seats = state["seats"] if i < 2 else [state["seats"][i % len(state["seats"])]]
        for seat in seats:
            check_picture(render.draw(GAME, G.view(state, seat)))
    assert set(PHASES) | {"over"} <= phases


def test_automatic_phases_render(game_states: list[dict[str, Any]]) -> None:
    """Phases the engine runs through without stopping still draw (a view can name them)."""
    view = G.view(game_states[len(game_states) // 2], None)
    for number, phase in enumerate(PHASES, 1):
        v = copy.deepcopy(view)
        v.update(phase=phase, phase_number=number, phase_title=PHASE_TITLES[phase], pending=[])
        check_picture(render.draw(GAME, v))


def test_png_under_one_mebibyte() -> None:
    seats, seed, options = GAMES["5p"]
    final = snapshots(seats, seed, options)[-1]
    for seat in (None, "ann"):
        data = render.png_bytes(render.draw(GAME, G.view(final, seat)))
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        assert len(data) < 1024 * 1024


# --- pictures follow the state --------------------------------------------------------------


def pixels(view: dict[str, Any]) -> bytes:
    return render.draw(GAME, view).tobytes()


def test_picture_changes_with_each_decision() -> None:
    state = G.setup(["ann", "bob", "cid"], 31, {})
    before = pixels(G.view(state, None))
    changed = 0
    for _ in range(12):
        seat = sorted(G.pending(state))[0]
        state = G.apply(state, seat, G.legal_actions(state, seat)[0])
        after = pixels(G.view(state, None))
        changed += after != before
        before = after
    assert changed == 12


def test_public_picture_shows_sealing_but_not_the_plan() -> None:
    state = G.setup(["ann", "bob"], 32, {})
    before = pixels(G.view(state, None))
    sealed = G.apply(state, "ann", G.legal_actions(state, "ann")[0])
    assert pixels(G.view(sealed, None)) != before  # "ann sealed" is shown


def test_private_picture_shows_own_plan() -> None:
    state = G.setup(["ann", "bob"], 33, {})
    before = pixels(G.view(state, "ann"))
    sealed = G.apply(state, "ann", G.legal_actions(state, "ann")[0])
    assert pixels(G.view(sealed, "ann")) != before


# --- secrets ------------------------------------------------------------------------------


def two_plans(state: dict[str, Any], seat: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Two legal plans of ``seat`` with different outcomes."""
    actions = G.legal_actions(state, seat)
    owned = state["players"][seat]["improvements"]
    first = actions[0]
    key = pads.evaluate(first["plan"], owned, False)["active"]
    for other in actions[1:]:
        if pads.evaluate(other["plan"], owned, False)["active"] != key:
            return first, other
    raise AssertionError("no two plans with different outcomes")


@pytest.mark.parametrize("others_sealed", [False, True])
def test_private_picture_never_shows_another_seats_plan(others_sealed: bool) -> None:
    state = G.setup(["ann", "bob", "cid"], 34, {})
    if others_sealed:  # ann has sealed too: her own plan is drawn, bob's must not be
        state = G.apply(state, "ann", G.legal_actions(state, "ann")[-1])
    plan_a, plan_b = two_plans(state, "bob")
    s1 = G.apply(state, "bob", plan_a)
    s2 = G.apply(state, "bob", plan_b)
    assert s1["players"]["bob"]["plan"] != s2["players"]["bob"]["plan"]
    assert G.pending(s1)  # still planning: the plans are secret
    for viewer in ("ann", "cid", None):
        assert pixels(G.view(s1, viewer)) == pixels(G.view(s2, viewer)), viewer
    # the test is sensitive: bob's own picture does show his plan
    assert pixels(G.view(s1, "bob")) != pixels(G.view(s2, "bob"))


def test_reveal_shows_every_decision() -> None:
    state = G.setup(["ann", "bob"], 35, {})
    plan_a, plan_b = two_plans(state, "bob")
    s = G.apply(state, "ann", G.legal_actions(state, "ann")[0])
    r1, r2 = G.apply(s, "bob", plan_a), G.apply(s, "bob", plan_b)
    assert r1["phase"] != "planning"
    assert pixels(G.view(r1, None)) != pixels(G.view(r2, None))


# --- plan preview ---------------------------------------------------------------------------


def test_plan_preview() -> None:
    state = G.setup(["ann", "bob"], 36, {})
    view = G.view(state, "ann")
    for action in G.legal_actions(state, "ann")[::17]:
        im = render.draw_plan(GAME, view, action["plan"])
        # a compact picture for a phone (issue 22): at most 800 px wide, no text under 20 px
        assert isinstance(im, Image.Image) and im.width <= 800 and 600 <= im.height <= 2400, im.size
        assert len(render.png_bytes(im)) < 1024 * 1024


def test_plan_preview_text_is_at_least_20_px() -> None:
    from render.smartphone_inc import plan_compact
    from render.smartphone_inc.compact import CompactCanvas

    sizes: set[int] = set()
    text = CompactCanvas.text

    def spy(self: CompactCanvas, *a: Any, **kw: Any) -> float:
        out = text(self, *a, **kw)
        sizes.update(self.sizes)
        return out

    state = G.setup(["ann", "bob"], 36, {})
    view = G.view(state, "ann")
    CompactCanvas.text = spy  # type: ignore[method-assign]
    try:
        for action in G.legal_actions(state, "ann")[::29]:
            plan_compact.draw(view, action["plan"])
    finally:
        CompactCanvas.text = text  # type: ignore[method-assign]
    assert sizes and min(sizes) >= 20, sorted(sizes)


def test_plan_preview_changes_with_the_plan() -> None:
    state = G.setup(["ann", "bob"], 37, {})
    view = G.view(state, "ann")
    a, b = two_plans(state, "ann")
    assert (
        render.draw_plan(GAME, view, a["plan"]).tobytes()
        != render.draw_plan(GAME, view, b["plan"]).tobytes()
    )


def test_plan_preview_refuses_an_illegal_plan() -> None:
    state = G.setup(["ann", "bob"], 38, {})
    view = G.view(state, "ann")
    bad = {
        "bottom": {"pad": "A", "side": 0},
        "top": {"side": 0, "rot": 0, "x": 9, "y": 9},
        "improvements": [],
    }
    with pytest.raises(IllegalAction):
        render.draw_plan(GAME, view, bad)
    with pytest.raises(ValueError):
        render.draw_plan(GAME, G.view(state, None), G.legal_actions(state, "ann")[0]["plan"])


# --- odd input and hygiene --------------------------------------------------------------------


def test_unknown_game() -> None:
    with pytest.raises(KeyError):
        render.draw("chess", {})


def test_long_names_and_odd_characters() -> None:
    seats = ["a-very-long-player-name-that-goes-on", "Zoë ☕", "x"]
    state = G.setup(seats, 39, {"automata": ["x"]})
    for seat in (None, *seats[:2]):
        check_picture(render.draw(GAME, G.view(state, seat)))


def test_render_imports_neither_bot_nor_discord() -> None:
    for path in (ROOT / "render").rglob("*.py"):
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                assert top not in ("bot", "discord"), f"{path} imports {name}"
                if top == "engine":  # views only: component data, plan geometry and yields
                    assert name in (
                        "engine",
                        "engine.smartphone_inc",
                        "engine.smartphone_inc.data",
                        "engine.smartphone_inc.pads",
                        "engine.smartphone_inc.planning",
                        "engine.age_of_automaton.data",
                        "engine.age_of_automaton.effects",  # describe(): effect data in words
                        "engine.age_of_automaton.achievements",  # describe(): a card's need in words
                        "engine.mobile_markets",
                        "engine.mobile_markets.data",
                        "engine.mobile_markets.pads",
                        "engine.mobile_markets.preview",
                    ), f"{path} imports {name}"
