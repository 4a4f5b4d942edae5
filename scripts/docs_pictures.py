"""Draw the pictures in docs/ again, the same bytes for the same code (``make docs-pictures``).

Each picture has one recipe below:

- ``update-*.png`` (Smartphone Inc.'s Update 1.1 modules): drawn from seeded games played
  here by the engine's own players (``engine.simulate.play_game``), at a named moment;
- the others (the README's boards and compact pictures of the three games): drawn from the
  reference views stored in ``tests/reference/*.json`` (themselves from seeded games, see
  the tests that regenerate them with ``RENDER_REGEN=1``), so they stay the reference
  pictures the tests compare with.

Usage::

    .venv/bin/python scripts/docs_pictures.py            # all pictures, into docs/
    .venv/bin/python scripts/docs_pictures.py update-directives --out /tmp/pics
    .venv/bin/python scripts/docs_pictures.py --check    # exit 1 if a picture in docs/ is stale
    .venv/bin/python scripts/docs_pictures.py --list     # the recipes
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops

import render
from engine import get_game
from engine.simulate import play_game
from engine.smartphone_inc import decisions
from engine.smartphone_inc.data import MINI_UPGRADES

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
REF = ROOT / "tests" / "reference"
SI = "smartphone-inc"

State = dict[str, Any]


@dataclass(frozen=True)
class Recipe:
    name: str
    how: str  # in words, for --list and the commit log
    draw: Callable[[], Image.Image]


# ----------------------------------------------------------------------------- seeded games


def states_of(seats: list[str], seed: int, options: dict[str, Any], kind: str) -> list[State]:
    """Every state of one game played by the engine's ``kind`` player, setup first."""
    game = get_game(SI)
    out = [game.setup(seats, seed, options)]
    play_game(SI, seats, seed, options, kind=kind, on_state=out.append)
    return out


def first_turn(states: list[State], rnd: int, phase: str, seat: str) -> State:
    """The first state of round ``rnd``'s ``phase`` in which ``seat`` is to act."""
    game = get_game(SI)
    for s in states:
        if s["round"] == rnd and s["phase"] == phase and seat in game.pending(s):
            return s
    raise LookupError(f"{seat} never acts in round {rnd}'s {phase}")


def board(seats: list[str], seed: int, options: dict[str, Any], kind: str, rnd: int, phase: str, seat: str) -> Image.Image:
    game = get_game(SI)
    state = first_turn(states_of(seats, seed, options, kind), rnd, phase, seat)
    return render.draw(SI, game.view(state, None))


def first_decision(seats: list[str], seed: int, options: dict[str, Any], kind: str, prompt_type: str) -> Image.Image:
    """The compact picture of the first decision of ``prompt_type`` in the game, as its
    player sees it."""
    game = get_game(SI)
    for s in states_of(seats, seed, options, kind):
        for seat, prompt in sorted(game.pending(s).items()):
            if prompt.get("type") == prompt_type:
                return render.draw_compact(SI, game.view(s, seat))
    raise LookupError(f"no {prompt_type} decision in that game")


def plan_with_a_mini_upgrade() -> Image.Image:
    """Bob's plan preview in round 5's Planning of the first-add-on-game set (seed 11,
    random players): the first of a seeded sample of his plans that puts his
    Mini-upgrade and the most Improvements on his Pads."""
    game = get_game(SI)
    state = first_turn(states_of(["ann", "bob", "cid"], 11, {"technologies": "first-add-on-game"}, "random"), 5, "planning", "bob")
    view = game.view(state, "bob")
    owned = view["prompt"]["improvements"]
    if not set(owned) & set(MINI_UPGRADES):
        raise LookupError("bob holds no Mini-upgrade in that game")
    plans = decisions.sample_plans(owned, "4g" in view["players"]["bob"].get("techs", []), 40, salt=1)
    with_mini = [p for p in plans if any(i["id"] in MINI_UPGRADES for i in p["improvements"])]
    best = max(with_mini, key=lambda p: len(p["improvements"]))  # the first of the longest
    return render.draw_plan(SI, view, best)


# ------------------------------------------------------------------------- stored views


def reference(name: str, game: str, compact: bool = False) -> Callable[[], Image.Image]:
    def draw() -> Image.Image:
        case = json.loads((REF / f"{name}.json").read_text("utf-8"))
        view = case.get("view", case) if game != "age-of-automaton" else case
        if compact:
            return render.draw_compact(game, view)
        if "plan" in case:
            return render.draw_plan(game, view, case["plan"])
        return render.draw(game, view)

    return draw


SMALL = {"board": "small"}
RECIPES = [
    Recipe(
        "update-directives",
        "Directives on the 2-3 player board: 3 players p1-p3, seed 0, greedy; round 5's Logistics as p1 starts it",
        lambda: board(["p1", "p2", "p3"], 0, {"directives": True, **SMALL}, "greedy", 5, "logistics", "p1"),
    ),
    Recipe(
        "update-small-board",
        "the 2-3 player board with the i-want-some-space set: 2 players p1-p2, seed 0, random; round 3's Logistics as p2 starts it",
        lambda: board(["p1", "p2"], 0, {"technologies": "i-want-some-space", **SMALL}, "random", 3, "logistics", "p2"),
    ),
    Recipe(
        "update-new-technologies",
        "the overproduction set of New Technologies: 3 players p1-p3, seed 16, random; round 3's Research as p2 starts it",
        lambda: board(["p1", "p2", "p3"], 16, {"technologies": "overproduction"}, "random", 3, "research", "p2"),
    ),
    Recipe(
        "update-compact-directive",
        "the first Directive offered: players a-b, seed 0, random, first-add-on-game set with Directives",
        lambda: first_decision(["a", "b"], 0, {"technologies": "first-add-on-game", "directives": True}, "random", "directive"),
    ),
    Recipe(
        "update-compact-mini-upgrade",
        "the first Mini-upgrade to take: the same game as update-compact-directive",
        lambda: first_decision(["a", "b"], 0, {"technologies": "first-add-on-game", "directives": True}, "random", "mini_upgrade"),
    ),
    Recipe(
        "update-compact-start-region",
        "the first starting region to choose on the 2-3 player board: players a-c, seed 1, random, overproduction set with Directives",
        lambda: first_decision(
            ["a", "b", "c"], 1, {"technologies": "overproduction", "directives": True, **SMALL}, "random", "start_region"
        ),
    ),
    Recipe(
        "update-plan-mini-upgrade",
        "a plan with a Mini-upgrade: players ann, bob, cid, seed 11, random, first-add-on-game set;"
        " bob's plan preview in round 5's Planning, the longest of a seeded sample of his plans"
        " (decisions.sample_plans, salt 1) that puts his Mini-upgrade on the Pads",
        plan_with_a_mini_upgrade,
    ),
    Recipe("board-start", "the stored reference view tests/reference/board-start.json", reference("board-start", SI)),
    Recipe("board-round3", "the stored reference view tests/reference/board-round3.json", reference("board-round3", SI)),
    *(
        Recipe(f"compact-{k}", f"the stored reference view tests/reference/compact-{k}.json", reference(f"compact-{k}", SI, True))
        for k in ("plan", "research", "sell")
    ),
    *(
        Recipe(n, f"the stored reference view tests/reference/{n}.json", reference(n, "mobile-markets"))
        for n in ("mm-board-round3", "mm-product-preview")
    ),
    Recipe("aoa-board-r3", "the stored reference view tests/reference/aoa-board-r3.json", reference("aoa-board-r3", "age-of-automaton")),
]
BY_NAME = {r.name: r for r in RECIPES}


def png_bytes(img: Image.Image) -> bytes:
    """The PNG as the docs keep it (the reference pictures are saved the same way)."""
    buf = io.BytesIO()
    img.save(buf, "PNG", optimize=True)
    return buf.getvalue()


def same_pixels(img: Image.Image, path: Path) -> bool:
    if not path.exists():
        return False
    with Image.open(path) as old:
        if old.size != img.size:
            return False
        return ImageChops.difference(old.convert("RGB"), img.convert("RGB")).getbbox() is None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("names", nargs="*", help="pictures to draw (default: all)")
    ap.add_argument("--out", type=Path, default=DOCS, help="folder to write into (default: docs/)")
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 if a picture differs from its file")
    ap.add_argument("--list", action="store_true", help="print each picture's recipe")
    args = ap.parse_args(argv)
    unknown = [n for n in args.names if n not in BY_NAME]
    if unknown:
        ap.error(f"no recipe for {', '.join(unknown)}; known: {', '.join(BY_NAME)}")
    chosen = [BY_NAME[n] for n in args.names] if args.names else RECIPES
    if args.list:
        for r in chosen:
            print(f"{r.name}.png: {r.how}")
        return 0
    stale = []
    args.out.mkdir(parents=True, exist_ok=True)
    for r in chosen:
        img = r.draw()
        path = args.out / f"{r.name}.png"
        if args.check:
            ok = same_pixels(img, path)
            print(f"{'ok   ' if ok else 'STALE'} {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
            stale += [] if ok else [r.name]
            continue
        data = png_bytes(img)
        if path.exists() and path.read_bytes() == data:
            print(f"same  {path}")
        else:
            path.write_bytes(data)
            print(f"wrote {path} ({img.width}x{img.height})")
    if stale:
        print(f"{len(stale)} stale: run `make docs-pictures` and look at them", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
