"""Age of Automaton pictures (issue 11, "Pictures"): every kind of stop of random games
renders (public and private), size limits (≤ 400 KiB; the private picture 800 px wide),
no other seat's secret in any picture (a changed hand or draft hand of another seat
changes nothing), and reference pictures with the tolerance of test_render_reference.

Regenerate the reference views and PNGs after a deliberate change with
``RENDER_REGEN=1 .venv/bin/python -m pytest tests/test_render_aoa.py -q`` and look at them.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import render
from engine.age_of_automaton.data import DRAFTABLE
from engine.age_of_automaton.game import GAME
from engine.jsonstate import clone
from engine.rng import Rng, initial_state
from tests.test_render_reference import (
    MAX_TILE_FRACTION,
    assert_like_reference,
    difference,
)

NAME = "age-of-automaton"
REF = Path(__file__).resolve().parent / "reference"
REGEN = os.environ.get("RENDER_REGEN") == "1"
CASES = ("aoa-board-r3", "aoa-private-draft", "aoa-private-dice")


def stops(seats: list[str], seed: int, options: dict[str, Any], kind: str = "random") -> list[dict[str, Any]]:
    """The states of one game: the first stop of each (phase, prompt kinds) and every
    80th state (drawing every state of every game takes minutes)."""
    rng = Rng(initial_state(seed))
    s = GAME.setup(seats, seed, options)
    out, seen, n = [s], set(), 0
    while not GAME.is_over(s):
        pend = GAME.pending(s)
        seat = sorted(pend)[0]
        action = GAME.random_action(s, seat, rng) if kind == "random" else GAME.greedy_action(s, seat)
        s = GAME.apply(s, seat, action)
        n += 1
        key = (s["phase"], tuple(sorted(p["type"] for p in GAME.pending(s).values())))
        if key not in seen or n % 80 == 0:
            seen.add(key)
            out.append(s)
    out.append(s)
    return out


def png(image: Image.Image) -> bytes:
    return render.png_bytes(image)


@pytest.mark.parametrize(
    ("seats", "seed", "options"),
    [(["ann", "bob"], 1, {"limited_common_specialists": True}), (["ann", "bob", "cid", "dan"], 2, {})],
)
def test_every_kind_of_stop_renders_public_and_private(seats: list[str], seed: int, options: dict[str, Any]) -> None:
    for s in stops(seats, seed, options):
        public = render.draw(NAME, GAME.view(s, None))
        assert public.width == 1200 and len(png(public)) <= 400 * 1024
        seat = sorted(GAME.pending(s))[0] if GAME.pending(s) else seats[0]
        private = render.draw(NAME, GAME.view(s, seat))
        assert private.width == 800 and len(png(private)) <= 400 * 1024


def _with_other_secrets_changed(s: dict[str, Any], keep: str) -> dict[str, Any] | None:
    """The same state with every other seat's hand and draft hand swapped for other cards."""
    t = clone(s)
    used = set(t["commons"])
    for p in t["players"].values():
        used |= set(p["hand"]) | set(p["played"])
    if t["draft"]:
        for h in t["draft"]["hands"].values():
            used |= set(h)
        for k in t["draft"]["kept"].values():
            used |= set(k)
    spare = [c for c in DRAFTABLE if c not in used]
    changed = False
    for seat, p in t["players"].items():
        if seat == keep:
            continue
        if p["hand"] and spare:
            p["hand"][0] = spare.pop()
            changed = True
        if t["draft"] and t["draft"]["hands"][seat] and spare:
            t["draft"]["hands"][seat][0] = spare.pop()
            changed = True
    return t if changed else None


def test_no_picture_shows_another_seats_hand_or_draft() -> None:
    """AA hidden information: the public picture and ann's private picture are the same
    bytes whatever the other seats hold (hands, draft hands)."""
    seats = ["ann", "bob", "cid"]
    checked = 0
    for s in stops(seats, 5, {}, kind="greedy")[::3]:
        if not (s["draft"] or any(p["hand"] for p in s["players"].values())):
            continue
        other = _with_other_secrets_changed(s, "ann")
        if other is None:
            continue
        for seat in (None, "ann"):
            assert png(render.draw(NAME, GAME.view(s, seat))) == png(render.draw(NAME, GAME.view(other, seat)))
        checked += 1
    assert checked >= 3
    # and the check can fail: ann's own picture shows her own hand
    s = next(x for x in stops(seats, 5, {}, kind="greedy") if x["draft"])
    mine = clone(s)
    spare = [c for c in DRAFTABLE if c not in sum(mine["draft"]["hands"].values(), [])]
    mine["draft"]["hands"]["ann"][0] = spare[0]
    assert png(render.draw(NAME, GAME.view(s, "ann"))) != png(render.draw(NAME, GAME.view(mine, "ann")))


# ------------------------------------------------------------------ reference pictures


def _build_views() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    s = GAME.setup(["ann", "bob", "cid"], 3, {})
    out["aoa-private-draft"] = GAME.view(s, "ann")
    while not GAME.is_over(s):
        pend = GAME.pending(s)
        seat = sorted(pend)[0]
        if pend[seat]["type"] == "dice" and "aoa-private-dice" not in out:
            out["aoa-private-dice"] = GAME.view(s, seat)
        s = GAME.apply(s, seat, GAME.greedy_action(s, seat))
        if s["round"] == 3 and s["phase"] == "action" and s["turn"] and any(
            p["markers"] for p in s["players"].values()
        ):
            out.setdefault("aoa-board-r3", GAME.view(s, None))
    return out


@pytest.fixture(scope="module")
def regenerated() -> None:
    if not REGEN:
        return
    for name, view in _build_views().items():
        (REF / f"{name}.json").write_text(json.dumps(view, indent=1) + "\n", "utf-8")
        render.draw(NAME, view).save(REF / f"{name}.png", optimize=True)
    render.draw(NAME, _build_views()["aoa-board-r3"]).save(REF.parent.parent / "docs" / "aoa-board-r3.png", optimize=True)


@pytest.mark.parametrize("name", CASES)
def test_reference_picture(name: str, regenerated: None) -> None:
    assert_like_reference(name, render.draw(NAME, json.loads((REF / f"{name}.json").read_text("utf-8"))))


def test_reference_tolerance_catches_a_changed_credit() -> None:
    view = json.loads((REF / "aoa-board-r3.json").read_text("utf-8"))
    want = Image.open(REF / "aoa-board-r3.png")
    seat = view["seats"][0]
    view["players"][seat]["credits"] += 7
    got = render.draw(NAME, view)
    assert got.size == want.size
    total, tile = difference(got, want)
    assert tile > MAX_TILE_FRACTION


def test_the_readme_picture_exists() -> None:
    assert (REF.parent.parent / "docs" / "aoa-board-r3.png").exists()


def test_the_turn_picture_shows_each_card_on_its_own_line_readable_on_a_phone(monkeypatch: Any) -> None:
    """Issue 22: the turn's compact picture (800 px wide, no text under 20 px) shows each
    card of the three card rows on its own line with the level that reaches it (were
    run-on lines of four cards), and each Sponsorship tile on its own line."""
    from render.age_of_automaton import private
    from render.age_of_automaton.kit import Canvas
    from tests.aoa_support import active, drafted

    state = drafted(2, seed=4)
    view = GAME.view(state, active(state))
    drawn: list[tuple[str, int]] = []
    real = Canvas.text

    def spy(self: Any, x: float, y: float, s: str, size: int | None = None, *a: Any, **k: Any) -> float:
        drawn.append((s, size or 0))
        return real(self, x, y, s, size, *a, **k)

    monkeypatch.setattr(Canvas, "text", spy)
    img = private.draw(view)
    assert img.width <= 800
    assert drawn and min(size for _, size in drawn) >= 20
    texts = [s for s, _ in drawn]
    for key in ("equipment", "rnd", "sale"):
        for card in view["rows"][key]:
            assert card["name"] in texts, card["name"]  # the name alone: a line of its own
    assert len(view["sponsorship"]) >= 2
