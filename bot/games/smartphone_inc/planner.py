"""Smartphone Inc.'s secret decision: building a plan (Phase 1) step by step. Pure.

:class:`Draft` + :func:`step_choices` / :func:`choose`: a plan built as bottom Pad and
side -> top Pad side -> rotation -> offset -> Improvements (which, rotation, layer and
position), or picked whole from the list of distinct outcomes (:func:`outcomes`).
Validity and effects come from ``engine.smartphone_inc.pads`` (``validate_plan``,
``evaluate``, ``arrangements``, ``distinct_outcomes``), so the planner never offers an
option the engine would refuse. A draft is serialisable into a short text (kept with
the planner message), so it survives a bot restart.

:class:`PlanBuilder` is this planner behind the generic
:class:`bot.games.base.SecretBuilder` protocol the Play cog drives.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from bot.choices import Choice, tagged, turned_page
from bot.choices import page as _page
from bot.games.smartphone_inc import words
from engine import IllegalAction
from engine.smartphone_inc import decisions, pads
from engine.smartphone_inc.data import IMPROVEMENTS, MINI_UPGRADES
from engine.smartphone_inc.new_technologies import face_down_goods
from engine.smartphone_inc.planning import summary_for, summary_of_ref, yields_for
from engine.smartphone_inc.selling import sellable_at
from render.smartphone_inc.pads import cell_name, grid_origin

ROTATIONS = (0, 1, 2, 3)  # quarter turns clockwise (pads.py)
LAYERS = ("over", "under")


@dataclass(frozen=True)
class PlanContext:
    """What the planning seat owns (from the engine's plan prompt), and its view, so
    that what a plan yields is computed by the engine's own rules."""

    owned: tuple[str, ...] = ()
    has_4g: bool = False
    table: dict[str, Any] | None = field(default=None, compare=False, hash=False)
    seat: str | None = None
    # what this context's lists came to, kept for its other screens (:func:`outcomes`:
    # each goal's screen reads the same list); never copied by ``replace``
    _memo: dict[str, Any] = field(default_factory=dict, init=False, compare=False, hash=False, repr=False)

    @classmethod
    def from_prompt(
        cls, prompt: dict[str, Any] | None, view: dict[str, Any] | None = None, seat: str | None = None
    ) -> PlanContext:
        prompt = prompt or {}
        return cls(tuple(prompt.get("improvements") or ()), bool(prompt.get("has_4g")), view, seat)

    def yields(self, ev: dict[str, Any]) -> dict[str, Any]:
        """``planning.yields`` for this seat (without a view: a company with no
        Technologies and no Goods tokens)."""
        return self.yields_fn()(ev)

    def yields_fn(self) -> Callable[[dict[str, Any]], dict[str, Any]]:
        """:meth:`yields` as one function, the seat read once (for long outcome lists)."""
        if self.table is not None and self.seat is not None:
            return yields_for(self.table, self.seat)
        return yields_for(_BARE, "_")

    def ref_summary_fn(self) -> Callable[[int], tuple[Any, ...]]:
        """:meth:`summary_fn` of an outcome's ref (``decisions.effect_refs``)."""
        if self.table is not None and self.seat is not None:
            return summary_of_ref(self.table, self.seat)
        return summary_of_ref(_BARE, "_")

    def summary_fn(self) -> Callable[[dict[str, Any]], tuple[Any, ...]]:
        """``planning.summary_for`` this seat: (price, Goods, improve, Research, Logistics)
        of :meth:`yields_fn`, the key of :func:`_summary_key`."""
        if self.table is not None and self.seat is not None:
            return summary_for(self.table, self.seat)
        return summary_for(_BARE, "_")


_BARE = {"players": {"_": {"tokens": 0, "steve": False, "techs": []}}, "techs": {}}


# ----------------------------------------------------------------------------- draft


@dataclass(frozen=True)
class Placed:
    id: str
    x: int
    y: int
    rot: int
    layer: str

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "x": self.x, "y": self.y, "rot": self.rot, "layer": self.layer}


@dataclass(frozen=True)
class Draft:
    """A plan being built. ``step`` says which select to show next."""

    bottom: str | None = None  # pad id, "A"/"B"
    bottom_side: int | None = None
    top_side: int | None = None
    rot: int | None = None
    x: int | None = None
    y: int | None = None
    improvements: tuple[Placed, ...] = ()
    step: str = "bottom"
    pick: str | None = None  # Improvement being placed
    pick_rot: int | None = None
    pick_layer: str | None = None
    price: int | None = None  # outcome filters
    goods: int | None = None
    page: int = 0
    goal: str | None = None  # the goal whose decisions are listed (step "goal")
    every: bool = False  # step "place": every position, not one per effect

    # -- plan --------------------------------------------------------------------
    @property
    def top(self) -> str | None:
        if self.bottom is None:
            return None
        return "B" if self.bottom == "A" else "A"

    def pads_complete(self) -> bool:
        return None not in (self.bottom, self.bottom_side, self.top_side, self.rot, self.x, self.y)

    def plan(self) -> dict[str, Any] | None:
        """The engine plan, or None while the Pads are not all set."""
        if not self.pads_complete():
            return None
        return {
            "bottom": {"pad": self.bottom, "side": self.bottom_side},
            "top": {"side": self.top_side, "rot": self.rot, "x": self.x, "y": self.y},
            "improvements": [p.as_dict() for p in self.improvements],
        }

    # -- text form (kept in the message) ------------------------------------------
    def encode(self) -> str:
        parts = []
        if self.bottom is not None and self.bottom_side is not None:
            parts.append(f"b{self.bottom}{self.bottom_side}")
        parts += tagged(("t", self.top_side), ("r", self.rot))
        if self.x is not None and self.y is not None:
            parts.append(f"p{self.x},{self.y}")
        for p in self.improvements:
            parts.append(f"i{p.id},{p.x},{p.y},{p.rot},{p.layer[0]}")
        parts.append(f"s{self.step}")
        parts += tagged(
            ("k", self.pick or None),
            ("q", self.pick_rot),
            ("l", self.pick_layer[0] if self.pick_layer else None),
            ("v", self.price),
            ("w", self.goods),
            ("g", self.page or None),
            ("o", self.goal or None),
            ("e", 1 if self.every else None),
        )
        return " ".join(parts)

    @classmethod
    def decode(cls, code: str | None) -> Draft:
        """Inverse of :meth:`encode`; anything unreadable gives a fresh draft."""
        if not code:
            return cls()
        kw: dict[str, Any] = {}
        imps: list[Placed] = []
        try:
            for part in code.split():
                tag, rest = part[0], part[1:]
                if tag == "b":
                    kw["bottom"], kw["bottom_side"] = rest[0], int(rest[1:])
                elif tag == "t":
                    kw["top_side"] = int(rest)
                elif tag == "r":
                    kw["rot"] = int(rest)
                elif tag == "p":
                    x, y = rest.split(",")
                    kw["x"], kw["y"] = int(x), int(y)
                elif tag == "i":
                    iid, x, y, rot, layer = rest.split(",")
                    imps.append(Placed(iid, int(x), int(y), int(rot), "over" if layer == "o" else "under"))
                elif tag == "s":
                    kw["step"] = rest
                elif tag == "k":
                    kw["pick"] = rest
                elif tag == "q":
                    kw["pick_rot"] = int(rest)
                elif tag == "l":
                    kw["pick_layer"] = "over" if rest == "o" else "under"
                elif tag == "v":
                    kw["price"] = int(rest)
                elif tag == "w":
                    kw["goods"] = int(rest)
                elif tag == "g":
                    kw["page"] = int(rest)
                elif tag == "o":
                    kw["goal"] = rest
                elif tag == "e":
                    kw["every"] = rest == "1"
        except (ValueError, IndexError):
            return cls()
        if kw.get("bottom") not in (None, "A", "B"):
            return cls()
        return cls(improvements=tuple(imps), **kw)

    @classmethod
    def from_plan(cls, plan: dict[str, Any], step: str = "review") -> Draft:
        b, t = plan["bottom"], plan["top"]
        return cls(
            bottom=b["pad"],
            bottom_side=int(b["side"]),
            top_side=int(t["side"]),
            rot=int(t["rot"]),
            x=int(t["x"]),
            y=int(t["y"]),
            improvements=tuple(
                Placed(i["id"], int(i["x"]), int(i["y"]), int(i["rot"]), i.get("layer", "over"))
                for i in plan.get("improvements") or []
            ),
            step=step,
        )


STEPS = (
    "start", "goal", "place",
    "bottom", "top", "rot", "pos", "review", "imp", "imp_rot", "imp_layer", "imp_pos", "price", "goods", "outcome",
)
STEP_TITLES = {
    "start": "Pick what you want most this round, or lay the Pads by hand.",
    "goal": "Pick a whole decision (what it gives, and what that means now):",
    "place": "Where does the top Pad lie? (its cells by the letters and numbers round each option's grid in the picture)",
    "bottom": "1. Which Pad goes at the bottom, and which side up?",
    "top": "2. Which side of the other Pad faces up?",
    "rot": "3. How is the top Pad turned?",
    "pos": "4. Where does the top Pad lie? (it must cover 1 to 4 cells)",
    "review": "Your plan: seal it, place an Improvement, or change something.",
    "imp": "Which Improvement do you place on the Pads?",
    "imp_rot": "How is the Improvement turned?",
    "imp_layer": "Does the Improvement lie on top, or under the top Pad?",
    "imp_pos": "Where does the Improvement lie? (cells as in the picture, which shows the first option)",
    "price": "Pick from the outcomes: which price do you want?",
    "goods": "How many Goods do you want to produce?",
    "outcome": "Pick one of the distinct outcomes:",
}


# ------------------------------------------------------------------------ geometry


def _safe_validate(plan: dict[str, Any], ctx: PlanContext) -> bool:
    try:
        pads.validate_plan(plan, list(ctx.owned), ctx.has_4g)
    except (IllegalAction, ValueError, KeyError, TypeError):
        return False
    return True


@lru_cache(maxsize=1)
def _arrangements() -> tuple[tuple[str, int, int, int, int, int], ...]:
    """Every legal Pad arrangement as (bottom pad, bottom side, top side, rot, x, y)."""
    out = []
    for a in pads.all_arrangements():
        plan = a.get("plan", a) if isinstance(a, dict) else a
        b, t = plan["bottom"], plan["top"]
        out.append((b["pad"], int(b["side"]), int(t["side"]), int(t["rot"]), int(t["x"]), int(t["y"])))
    return tuple(out)


def covered_cells(d: Draft) -> int | None:
    plan = d.plan()
    if plan is None:
        return None
    try:
        return int(pads.evaluate(plan, [], False)["covered"])
    except (IllegalAction, ValueError, KeyError, TypeError):
        return None


def evaluate(d: Draft, ctx: PlanContext) -> dict[str, Any] | None:
    """``pads.evaluate`` of the draft, or None if it is not (yet) a legal plan."""
    plan = d.plan()
    if plan is None:
        return None
    try:  # evaluate refuses what validate_plan refuses
        ev = dict(pads.evaluate(plan, list(ctx.owned), ctx.has_4g, _literal(ctx)))  # the game's rules version
    except IllegalAction:
        return None
    ev["yields"] = ctx.yields({**ev, "face_down": face_down_goods(ev["face_down"])})  # a Mini-upgrade makes no Goods
    return ev


def problem(d: Draft, ctx: PlanContext) -> str | None:
    """Why the draft cannot be sealed (None if it can)."""
    plan = d.plan()
    if plan is None:
        return "finish laying the Pads first"
    try:
        pads.validate_plan(plan, list(ctx.owned), ctx.has_4g)
    except (IllegalAction, ValueError) as exc:
        return str(exc)
    return None


def _imp_candidates(d: Draft, ctx: PlanContext, imp: str) -> list[Placed]:
    """Every legal placement of ``imp`` added to the draft (brute force over validate_plan)."""
    key = (d.bottom, d.bottom_side, d.top_side, d.rot, d.x, d.y, d.improvements)
    return list(_candidates(key, ctx.owned, ctx.has_4g, imp))


@lru_cache(maxsize=256)
def _candidates(key: tuple[Any, ...], owned: tuple[str, ...], has_4g: bool, imp: str) -> tuple[Placed, ...]:
    bottom, bside, tside, rot, x, y, placed = key
    d = Draft(bottom=bottom, bottom_side=bside, top_side=tside, rot=rot, x=x, y=y, improvements=placed)
    ctx = PlanContext(owned, has_4g)
    return tuple(_brute_candidates(d, ctx, imp))


def _brute_candidates(d: Draft, ctx: PlanContext, imp: str) -> list[Placed]:
    base = d.plan()
    if base is None:
        return []
    xs = [0, 3] + ([d.x, d.x + 3] if d.x is not None else [])
    ys = [0, 2] + ([d.y, d.y + 3] if d.y is not None else [])
    lo_x, hi_x = min(xs) - 2, max(xs) + 1
    lo_y, hi_y = min(ys) - 2, max(ys) + 1
    out = []
    for rot in ROTATIONS:
        for layer in LAYERS:
            for y in range(lo_y, hi_y + 1):
                for x in range(lo_x, hi_x + 1):
                    if not pads.touches_pads(base["top"], x, y, rot):
                        continue  # never legal: not worth checking the whole plan
                    p = Placed(imp, x, y, rot, layer)
                    plan = dict(base)
                    plan["improvements"] = base["improvements"] + [p.as_dict()]
                    if _safe_validate(plan, ctx):
                        out.append(p)
    return out


# -------------------------------------------------------------------------- choices


def step_choices(d: Draft, ctx: PlanContext) -> list[Choice]:
    """The options of the select for the draft's current step (already paged)."""
    arr = _arrangements()
    items: list[Choice] = []
    if d.step == "start":
        bests = first_screen_bests(ctx)
        for goal, title in GOALS:
            if goal in bests:
                items.append(Choice(f"goal:{goal}", title, best_line(bests[goal][0], ctx)))
        for pad in ("A", "B"):
            other = "B" if pad == "A" else "A"
            for side in (0, 1):
                for top in (0, 1):
                    if any(a[:3] == (pad, side, top) for a in arr):
                        items.append(
                            Choice(
                                f"hand:{pad}{side}:{top}",
                                f"By hand: Pad {pad} side {side + 1} below, Pad {other} side {top + 1} on top",
                                fit([pad_cells_text(pad, side) + " | " + pad_cells_text(other, top)]),
                            )
                        )
    elif d.step == "goal":
        for summary, ref in goal_decisions(ctx, d.goal or "goods"):
            label, desc = decision_label(summary, ctx)
            items.append(Choice(str(ref), fit([label]), fit([desc])))
    elif d.step == "place":
        seen: set[Any] = set()
        origin = grid_origin(ctx.has_4g)
        placed: list[tuple[str, list[str], str, int, int]] = []  # (value, what it yields, cells, turn, covered)
        for a in arr:
            if a[:3] != (d.bottom, d.bottom_side, d.top_side):
                continue
            trial = replace(d, rot=a[3], x=a[4], y=a[5], improvements=())
            ev = evaluate(trial, ctx)
            if ev is None:
                continue
            key = (ev["covered"], tuple(sorted(ev["active"].items())))
            if key in seen and not d.every:
                continue  # the same effect as one listed already ("every position" shows all)
            seen.add(key)
            cells = sorted(pads.top_pad_positions(a[3], a[4], a[5]), key=lambda p: (p[1], p[0]))
            # the cells as the picture's letters and numbers name them (one frame for every
            # place: render.smartphone_inc.pads.grid_origin), the Pads as its caption names them
            where = f"{cell_name(*cells[0], origin)}–{cell_name(*cells[-1], origin)}"
            placed.append((f"{a[3]},{a[4]},{a[5]}", yield_parts(ev["yields"], ctx), where, a[3] * 90, ev["covered"]))
        # what it yields first: two places with the same wording differed in words by nothing
        # ("Top Pad lengthwise on A1–C2, turned 0°, covers 2" six times); the place after it.
        # Two places on the same cells with the same yield (turned 0° and 180°) say their turn;
        # one still worded like another yields the same as it: listed once ("every position": all)
        said = [(tuple(parts), where) for _v, parts, where, _t, _c in placed]
        shown: set[tuple[Any, ...]] = set()
        for (value, parts, where, turned, covered), key in zip(placed, said, strict=True):
            if said.count(key) > 1:
                where += f", turned {turned}°"
                key = (*key, turned)
            if key in shown and not d.every:
                continue
            shown.add(key)
            place = f"on {where}"  # never left out: two places may yield alike
            items.append(Choice(
                value,
                fit(parts, NUMBERED - len(place) - 3) + " · " + place,
                fit([f"Top Pad (orange frame) on {where}" + ("" if ", turned" in where else f", turned {turned}°"),
                     f"covering {_cells(covered)} of the bottom Pad"], sep=", "),
            ))
        if not d.every:
            items.append(Choice("@every", "Every position (also the ones with the same effect)"))
    elif d.step == "bottom":
        for pad in ("A", "B"):
            for side in (0, 1):
                items.append(
                    Choice(
                        f"{pad}{side}",
                        f"Pad {pad} side {side + 1} at the bottom",
                        fit([pad_cells_text(pad, side)]),
                    )
                )
    elif d.step == "top":
        other = d.top or "B"
        for side in (0, 1):
            if any(a[0] == d.bottom and a[1] == d.bottom_side and a[2] == side for a in arr):
                items.append(
                    Choice(str(side), f"Pad {other} side {side + 1} on top", fit([pad_cells_text(other, side)]))
                )
    elif d.step == "rot":
        for rot in ROTATIONS:
            if any(a[:4] == (d.bottom, d.bottom_side, d.top_side, rot) for a in arr):
                kind = "parallel" if rot % 2 == 0 else "perpendicular"
                items.append(Choice(str(rot), f"Turned {rot * 90}°", kind))
    elif d.step == "pos":
        for a in arr:
            if a[:4] == (d.bottom, d.bottom_side, d.top_side, d.rot):
                cov = covered_cells(replace(d, x=a[4], y=a[5], improvements=()))
                cells = sorted(pads.top_pad_positions(a[3], a[4], a[5]), key=lambda c: (c[1], c[0]))
                origin = grid_origin(ctx.has_4g)  # the cells as the picture labels them
                items.append(
                    Choice(
                        f"{a[4]},{a[5]}",
                        f"Top Pad on {cell_name(*cells[0], origin)}–{cell_name(*cells[-1], origin)}",
                        f"covering {_cells(cov)} of the bottom Pad" if cov is not None else "",
                    )
                )
    elif d.step == "review":
        placed = {p.id for p in d.improvements}
        for imp in ctx.owned:
            if imp in placed:
                continue
            origin = _origin(d, ctx)
            cands = _imp_candidates(d, ctx, imp)
            for rot, layer in _orientations(d, ctx, imp):
                first = next(c for c in cands if c.rot == rot and c.layer == layer)
                ev = evaluate(replace(d, improvements=d.improvements + (first,)), ctx)
                spot = " and ".join(cell_name(*p, origin) for p in pads.improvement_positions(first.x, first.y, first.rot))
                items.append(
                    Choice(
                        f"+{imp}:{rot}:{layer}",
                        fit([f"Place {orientation_text(imp, rot, layer)}"]),
                        fit([f"e.g. on {spot}: {yp[0]}", *yp[1:]]) if (yp := _yields_of(ev, ctx)) else "",
                    )
                )
        items.append(Choice("@imp", "Place an Improvement step by step"))
        for p in d.improvements:
            items.append(
                Choice(f"-{p.id}", fit([f"Take the {words.improvement_label(p.id)} off the Pads (face down)"]))
            )
        items.append(Choice("@pads", "Change the Pads (keeps nothing)"))
        items.append(Choice("@start", "Pick a whole decision by goal instead"))
    elif d.step == "imp":
        placed = {p.id for p in d.improvements}
        for imp in ctx.owned:
            if imp not in placed:
                items.append(Choice(imp, fit([words.improvement_label(imp)])))
    elif d.step == "imp_rot":
        cands = _imp_candidates(d, ctx, d.pick or "")
        for rot in ROTATIONS:
            if any(c.rot == rot for c in cands):
                items.append(Choice(str(rot), f"Turned {rot * 90}°", "horizontal" if rot % 2 == 0 else "vertical"))
    elif d.step == "imp_layer":
        cands = _imp_candidates(d, ctx, d.pick or "")
        for layer in LAYERS:
            if any(c.rot == d.pick_rot and c.layer == layer for c in cands):
                label = "On top of everything" if layer == "over" else "Under the top Pad (on the bottom Pad)"
                items.append(Choice(layer, label))
    elif d.step == "imp_pos":
        for c in _imp_candidates(d, ctx, d.pick or ""):
            if c.rot == d.pick_rot and c.layer == d.pick_layer:
                trial = replace(d, improvements=d.improvements + (c,))
                ev = evaluate(trial, ctx)
                a, b = pads.improvement_positions(c.x, c.y, c.rot)
                origin = _origin(d, ctx)
                items.append(
                    Choice(
                        f"{c.x},{c.y}",
                        f"On {cell_name(*a, origin)} and {cell_name(*b, origin)}",
                        fit(_yields_of(ev, ctx)),
                    )
                )
    elif d.step == "price":
        by_price: dict[int, int] = {}
        for summary, _ref in outcomes(ctx):
            by_price[summary["price"]] = by_price.get(summary["price"], 0) + 1
        for price in sorted(by_price):
            items.append(Choice(str(price), f"Price {price}", f"{by_price[price]} distinct outcome{'' if by_price[price] == 1 else 's'}"))
    elif d.step == "goods":
        counts: dict[int, int] = {}
        for summary, _ref in outcomes(ctx):
            if summary["price"] == d.price:
                counts[summary["goods"]] = counts.get(summary["goods"], 0) + 1
        for goods in sorted(counts, reverse=True):
            items.append(Choice(str(goods), f"{goods} Goods", f"{counts[goods]} distinct outcome{'' if counts[goods] == 1 else 's'}"))
    elif d.step == "outcome":
        for summary, ref in outcomes(ctx):
            if summary["price"] == d.price and summary["goods"] == d.goods:
                items.append(Choice(str(ref), fit([summary["label"]]), fit([summary["detail"]])))
    if d.step in PLACING:  # numbered as the picture numbers their places (presenter.preview's candidates)
        places = [c for c in items if not c.value.startswith("@")]
        numbers = {c.value: k for k, c in enumerate(places, 1)}
        items = [replace(c, label=f"{numbers[c.value]}. {c.label}") if c.value in numbers else c for c in items]
    return _page(items, d.page)


PLACING = ("place", "imp_pos")  # the steps that put a piece on the Pads: the picture shows each option


def placing_options(d: Draft, ctx: PlanContext) -> list[tuple[int, Draft]]:
    """The options of a placing step on the select's page, each (its number, the draft
    with it put in): what the picture draws, numbered like the list."""
    if d.step not in PLACING:
        return []
    out = []
    for c in step_choices(d, ctx):
        if c.value.startswith("@"):
            continue
        try:
            out.append((int(c.label.split(".", 1)[0]), choose(d, ctx, c.value)))
        except (IllegalAction, ValueError):
            continue
    return out


def _plain(s: str) -> str:
    return s.replace("**", "")


def choose(d: Draft, ctx: PlanContext, value: str) -> Draft:
    """The draft after the player picked ``value`` in the current step's select."""
    turned = turned_page(value, d.page)
    if turned is not None:
        return replace(d, page=turned)
    if value == "@every":
        return replace(d, every=True, page=0)
    d = replace(d, page=0)
    if d.step == "start":
        if value.startswith("goal:"):
            return replace(d, step="goal", goal=value[5:])
        if value.startswith("hand:"):
            _h, pads_, top = value.split(":")
            return Draft(bottom=pads_[0], bottom_side=int(pads_[1:]), top_side=int(top), step="place")
    if d.step == "goal":
        return replace(Draft.from_plan(plan_of(ctx, int(value))), goal=d.goal)
    if d.step == "place":
        rot, x, y = (int(v) for v in value.split(","))
        return replace(d, rot=rot, x=x, y=y, improvements=(), step="review", every=False)
    if d.step == "bottom":
        return Draft(bottom=value[0], bottom_side=int(value[1:]), step="top")
    if d.step == "top":
        return replace(d, top_side=int(value), rot=None, x=None, y=None, improvements=(), step="rot")
    if d.step == "rot":
        return replace(d, rot=int(value), x=None, y=None, improvements=(), step="pos")
    if d.step == "pos":
        x, y = value.split(",")
        new = replace(d, x=int(x), y=int(y), improvements=())
        return replace(new, step="review")
    if d.step == "review":
        if value == "@imp":
            return replace(d, step="imp")
        if value == "@pads":
            return Draft(step="start")
        if value == "@outcomes":
            return replace(d, step="price")
        if value == "@start":
            return Draft(step="start")
        if value.startswith("+"):
            imp, rot, layer = value[1:].split(":")
            return replace(d, pick=imp, pick_rot=int(rot), pick_layer=layer, step="imp_pos")
        if value.startswith("-"):
            return replace(d, improvements=tuple(p for p in d.improvements if p.id != value[1:]))
    if d.step == "imp":
        return replace(d, pick=value, pick_rot=None, pick_layer=None, step="imp_rot")
    if d.step == "imp_rot":
        return replace(d, pick_rot=int(value), step="imp_layer")
    if d.step == "imp_layer":
        return replace(d, pick_layer=value, step="imp_pos")
    if d.step == "imp_pos":
        x, y = value.split(",")
        p = Placed(d.pick or "", int(x), int(y), d.pick_rot or 0, d.pick_layer or "over")
        return replace(
            d, improvements=d.improvements + (p,), pick=None, pick_rot=None, pick_layer=None, step="review"
        )
    if d.step == "price":
        return replace(d, price=int(value), goods=None, step="goods")
    if d.step == "goods":
        return replace(d, goods=int(value), step="outcome")
    if d.step == "outcome":
        return Draft.from_plan(plan_of(ctx, int(value)))
    raise IllegalAction("that choice is out of date; open the planner again")


def back(d: Draft) -> Draft:
    """One step back (the Back button)."""
    if d.step in ("goal", "place"):
        return replace(d, step="start", page=0, every=False)
    if d.step == "imp_pos" and d.pick_layer is not None and d.pick_rot is not None and True:
        return replace(d, step="review", pick=None, pick_rot=None, pick_layer=None, page=0)
    if d.step == "review" and d.goal is not None:
        return replace(d, step="goal", page=0)
    if d.step == "review" and d.pads_complete():
        return replace(d, step="place", page=0)
    prev = {
        "top": "bottom",
        "rot": "top",
        "pos": "rot",
        "review": "pos",
        "imp": "review",
        "imp_rot": "imp",
        "imp_layer": "imp_rot",
        "imp_pos": "imp_layer",
        "price": "review" if d.pads_complete() else "bottom",
        "goods": "price",
        "outcome": "goods",
    }.get(d.step, "bottom")
    return replace(d, step=prev, page=0)


def goto(d: Draft, step: str) -> Draft:
    if step not in STEPS:
        raise IllegalAction("unknown planner step")
    if step in ("review", "imp") and not d.pads_complete():
        step = "bottom"
    return replace(d, step=step, page=0)


# ------------------------------------------------------------------------ outcomes


def outcomes(ctx: PlanContext) -> list[tuple[dict[str, Any], int]]:
    """(summary, ref) for every outcome with a distinct effect for this seat, grouped by
    price, most Goods first; ``plan_of(ctx, ref)`` gives the plan of one. Computed once
    per context (a new list each call, the same summaries: read them, do not change them)."""
    out = ctx._memo.get("outcomes")
    if out is None:
        yields = ctx.yields_fn()  # the full yields only of the first outcome of each effect
        out = [(_summary(yields(item)), item["ref"]) for item in _firsts(ctx).values()]
        out.sort(key=lambda o: (o[0]["price"], -o[0]["goods"], o[0]["rank"]))
        ctx._memo["outcomes"] = out
    return list(out)


def _firsts(ctx: PlanContext) -> dict[tuple[Any, ...], dict[str, Any]]:
    """The first outcome of each effect for this seat (the key of :func:`_summary_key`),
    in the engine's order; the others give the same as one of these."""
    refs = _first_refs(ctx)
    if refs is not None:
        return {k: decisions.outcome_of_ref(r) for k, r in refs.items()}
    items = _outcomes(ctx.owned, ctx.has_4g, _literal(ctx))
    firsts: dict[tuple[Any, ...], dict[str, Any]] = {}
    for item, key in zip(items, map(ctx.summary_fn(), items), strict=True):
        if key not in firsts:
            firsts[key] = item
    return firsts


def _first_refs(ctx: PlanContext) -> dict[tuple[Any, ...], int] | None:
    """:func:`_firsts` as refs, the outcomes not built (``decisions.effect_refs``); None
    where the outcomes need more than their refs (a Mini-upgrade owned)."""
    refs = _effect_refs(ctx.owned, ctx.has_4g, _literal(ctx))
    if refs is None:
        return None
    rev = refs[::-1]  # later entries win: walked backwards, the first of each key stays
    first = dict(zip(map(ctx.ref_summary_fn(), rev), rev, strict=True))
    return dict(sorted(first.items(), key=_second))  # the engine's order: the refs ascend


def first_screen_bests(ctx: PlanContext) -> dict[str, tuple[dict[str, Any], int]]:
    """``goal_decisions(ctx, goal, 1)`` of every goal that has one, with the full yields
    built only of these (the first screen shows one decision per goal)."""
    refs = _first_refs(ctx)
    firsts: dict[tuple[Any, ...], Any] = refs if refs is not None else _firsts(ctx)
    yields = ctx.yields_fn()
    out: dict[str, tuple[dict[str, Any], int]] = {}
    for goal, _title in GOALS:
        # the first of the sorted list of :func:`outcomes` among the best for the goal
        order = _GOAL_BEST[goal]
        candidates = [k for k in firsts if k[2]] if goal == "improve" else firsts
        if candidates:
            best = firsts[min(candidates, key=order)]
            item = decisions.outcome_of_ref(best) if refs is not None else best
            out[goal] = (_summary(yields(item)), item["ref"])
    return out


def plan_of(ctx: PlanContext, ref: int) -> dict[str, Any]:
    return decisions.outcome_plan(list(ctx.owned), ctx.has_4g, ref, literal_cover=_literal(ctx))


def _literal(ctx: PlanContext) -> bool:
    """Whether the game's rules version counts cells under an "under" Improvement as
    making no covered-cell Goods (``planning.literal_cover``; a bare context: version 1)."""
    return ctx.table is not None and int(ctx.table.get("rules", 1)) >= 2


def _second(pair: tuple[Any, int]) -> int:
    return pair[1]


@lru_cache(maxsize=64)
def _effect_refs(owned: tuple[str, ...], has_4g: bool, literal: bool = False) -> tuple[int, ...] | None:
    """``decisions.effect_refs``: the refs of :func:`_outcomes`, or None (a Mini-upgrade owned)."""
    refs = decisions.effect_refs(list(owned), has_4g, literal_cover=literal)
    return None if refs is None else tuple(refs)


@lru_cache(maxsize=64)
def _outcomes(owned: tuple[str, ...], has_4g: bool, literal: bool = False) -> tuple[dict[str, Any], ...]:
    """The engine's outcomes (plans as refs) that differ in what they give, with the
    face-down pieces that make Goods (``decisions.goods_effects``: a Mini-upgrade makes none)."""
    return tuple(decisions.goods_effects(list(owned), has_4g, literal_cover=literal))


def _summary_key(y: dict[str, Any]) -> tuple[Any, ...]:
    return (y["price"], y["goods"], y["improve"], y["research"], y["logistics"])


def _summary(y: dict[str, Any]) -> dict[str, Any]:
    """A one-line label of what an outcome yields (``planning.yields``)."""
    label = (
        f"Price {y['price']} · {y['goods']} Goods · "
        + ("Improve · " if y["improve"] else "")
        + f"Research {y['research']} · Logistics {y['logistics']}"
    )
    detail = " + ".join(f"{n} {what}" for what, n in y["goods_parts"]) or "no Goods"
    key = _summary_key(y)
    return {
        "price": y["price"], "goods": y["goods"], "label": label, "detail": detail, "key": key, "rank": _rank(key),
        "improve": bool(y["improve"]), "research": y["research"], "logistics": y["logistics"],
    }


def _rank(key: tuple[Any, ...]) -> tuple[int, int, int]:
    """Among decisions of the same price and Goods: Improve first, then the most markers."""
    _price, _goods, improve, research, logistics = key
    return (-int(improve), -(research + logistics), -research)


# ---------------------------------------------------------------------------- goals

GOALS = (
    ("goods", "Most Goods"),
    ("price", "Lowest price"),
    ("research", "Most Research"),
    ("logistics", "Most Logistics"),
    ("improve", "Improve (take an Improvement)"),
)
# each on a decision's key (price, Goods, improve, Research, Logistics): _summary_key
_GOAL_ORDER = {
    "price": lambda k: (k[0], -k[1], -int(k[2]), -(k[3] + k[4])),
    "goods": lambda k: (-k[1], k[0], -int(k[2]), -(k[3] + k[4])),
    "research": lambda k: (-k[3], k[0], -k[1], -int(k[2]), -k[4]),
    "logistics": lambda k: (-k[4], k[0], -k[1], -int(k[2]), -k[3]),
    "improve": lambda k: (-int(k[2]), k[0], -k[1], -(k[3] + k[4])),
}

# :data:`_GOAL_ORDER`, ties broken by the order of :func:`outcomes` (price, -Goods, _rank)
_GOAL_BEST = {
    "price": lambda k: (k[0], -k[1], -int(k[2]), -(k[3] + k[4]), -k[3]),
    "goods": lambda k: (-k[1], k[0], -int(k[2]), -(k[3] + k[4]), -k[3]),
    "research": lambda k: (-k[3], k[0], -k[1], -int(k[2]), -k[4]),
    "logistics": lambda k: (-k[4], k[0], -k[1], -int(k[2]), -k[3]),
    "improve": lambda k: (-int(k[2]), k[0], -k[1], -(k[3] + k[4]), -k[3]),
}


def _dominates(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """``a`` is at least as good as ``b`` in everything a decision gives, and not the same."""
    return (
        a["key"] != b["key"]
        and a["price"] <= b["price"]
        and a["goods"] >= b["goods"]
        and a["improve"] >= b["improve"]
        and a["research"] >= b["research"]
        and a["logistics"] >= b["logistics"]
    )


def goal_decisions(
    ctx: PlanContext, goal: str, limit: int = 25, items: list[tuple[dict[str, Any], int]] | None = None
) -> list[tuple[dict[str, Any], int]]:
    """The best whole decisions for ``goal`` (the engine's distinct outcomes, valued by
    ``planning.yields`` for this seat), best first, leaving out any decision that another
    one beats in everything it gives."""
    order = _GOAL_ORDER.get(goal, _GOAL_ORDER["goods"])
    pool = items if items is not None else outcomes(ctx)
    if goal == "improve":
        pool = [o for o in pool if o[0]["improve"]]
    if limit == 1:  # the first screen's "best": the first of the sorted list, without sorting
        return [min(pool, key=lambda o: order(o[0]["key"]))] if pool else []
    ranked = sorted(pool, key=lambda o: order(o[0]["key"]))
    kept: list[tuple[dict[str, Any], int]] = []
    for item in ranked:
        if any(_dominates(k[0], item[0]) for k in kept):
            continue
        kept.append(item)
        if len(kept) >= limit:
            break
    return kept


def sellable(ctx: PlanContext, price: int) -> int | None:
    """About how many Goods the seat can sell at ``price`` (None without a view)."""
    if ctx.table is None or ctx.seat is None:
        return None
    try:
        return sellable_at(ctx.table, ctx.seat, price)
    except (KeyError, TypeError):
        return None


def what_it_means(price: int, goods: int, ctx: PlanContext) -> str:
    """What a price and a number of Goods mean now, with a warning for wasted Goods."""
    can = sellable(ctx, price)
    if can is None:
        return ""
    if goods > can:  # the decisive fact first, in a select's 100 characters
        return f"⚠️ {goods - can} of {goods} Goods unsold: you can sell about {can} at price {price}"
    return f"you can sell about {can} at price {price} in your regions"


def decision_bits(summary: dict[str, Any]) -> list[str]:
    """What a whole decision gives, in parts: "price 4", "7 Goods", "Improve", "Research 2"."""
    bits = [f"price {summary['price']}", f"{summary['goods']} Goods"]
    if summary["improve"]:
        bits.append("Improve")
    if summary["research"]:
        bits.append(f"Research {summary['research']}")
    if summary["logistics"]:
        bits.append(f"Logistics {summary['logistics']}")
    return bits


def decision_label(summary: dict[str, Any], ctx: PlanContext) -> tuple[str, str]:
    """(label, what it means now) of a whole decision: "price 4 · 7 Goods · Research 2"."""
    return " · ".join(decision_bits(summary)), what_it_means(summary["price"], summary["goods"], ctx) or summary["detail"]


def best_line(summary: dict[str, Any], ctx: PlanContext) -> str:
    """The first screen's description of a goal's best decision, within a select's 100
    characters (it said the price and the Goods twice and lost its end: "… · best: price 3
    · 8 Goods · Research 1 · Lo…"): Goods left unsold first, with the price (the decisive
    fact), else the price and the Goods; then Improve, Research, Logistics; then how many
    Goods the seat can sell."""
    can = sellable(ctx, summary["price"])
    bits = decision_bits(summary)
    if can is not None and summary["goods"] > can:
        unsold = f"⚠️ {summary['goods'] - can} of {summary['goods']} Goods unsold at price {summary['price']}"
        return fit([unsold, *bits[2:]])
    return fit([*bits, f"you can sell about {can}" if can is not None else summary["detail"]])


def _cells(n: int) -> str:
    return f"{n} cell{'' if n == 1 else 's'}"


def yield_parts(y: dict[str, Any], ctx: PlanContext) -> list[str]:
    """What a plan yields (``planning.yields``) in parts, with the Goods the seat cannot
    sell next to the Goods: "price 4", "9 Goods (⚠️ 6 unsold)", "Improve", "Research 2"."""
    bits = decision_bits(_summary(y))
    can = sellable(ctx, y["price"])
    if can is not None and y["goods"] > can:
        bits[1] += f" (⚠️ {y['goods'] - can} unsold)"
    return bits


def short_yields(y: dict[str, Any], ctx: PlanContext) -> str:
    """One line of what a plan yields, with the Goods warning (:func:`yield_parts`)."""
    return " · ".join(yield_parts(y, ctx))


def _yields_of(ev: dict[str, Any] | None, ctx: PlanContext) -> list[str]:
    return yield_parts(ev["yields"], ctx) if ev else []


LIMIT = 100  # Discord's most characters of a select option's label or description
NUMBERED = LIMIT - len("25. ")  # a placing step's label, numbered as the picture numbers it


def fit(parts: list[str], limit: int = LIMIT, sep: str = " · ") -> str:
    """The ``parts`` (the most useful first) joined, as many whole ones as fit in
    ``limit`` characters: a select's text is never cut in the middle of a word (Discord
    cuts at 100). A first part longer than that keeps its whole words that fit, then "…"."""
    out = ""
    for part in (p for p in parts if p):
        joined = f"{out}{sep}{part}" if out else part
        if len(joined) > limit:
            if not out:  # (no part of the planner is this long: a safety net)
                cut = part[: limit - 1].rsplit(" ", 1)[0]
                return cut.rstrip(" ·,:") + "…"
            break
        out = joined
    return out


# ------------------------------------------------------------------- by hand, quickly


def candidate(d: Draft, ctx: PlanContext) -> Draft:
    """The draft with the first option of the current placing step put in (what the
    picture shows while the player chooses): the top Pad's first place, or the
    Improvement's first spot. Other steps: the draft itself."""
    options = [c for c in step_choices(d, ctx) if not c.value.startswith("@")] if d.step in ("place", "imp_pos") else []
    if not options:
        return d
    try:
        return choose(d, ctx, options[0].value)
    except (IllegalAction, ValueError):
        return d


def _origin(d: Draft, ctx: PlanContext) -> tuple[int, int]:
    """The cell named "A1" (the same for every plan of the seat: its picture labels the grid alike)."""
    return grid_origin(ctx.has_4g)


def orientation_text(imp: str, rot: int, layer: str) -> str:
    """An Improvement turned and layered, by its halves: "Price Up | Logistics, on top"."""
    cells = [words.SYMBOL_NAMES.get(c, str(c)) for c in IMPROVEMENTS.get(imp, ["?", "?"])]
    if rot in (2, 3):
        cells = cells[::-1]
    sep = " | " if rot % 2 == 0 else " over "  # side by side, or one above the other
    where = "on top" if layer == "over" else "under the top Pad"
    mini = "the Mini-upgrade " if imp in MINI_UPGRADES else ""  # Update 1.1: placed like an Improvement
    return f"{mini}{cells[0]}{sep}{cells[1]}, {where}"


def _orientations(d: Draft, ctx: PlanContext, imp: str) -> list[tuple[int, str]]:
    """(rotation, layer) in which ``imp`` can be placed on the draft's Pads."""
    cands = _imp_candidates(d, ctx, imp)
    out: list[tuple[int, str]] = []
    for c in cands:
        if (c.rot, c.layer) not in out:
            out.append((c.rot, c.layer))
    return sorted(out, key=lambda o: (o[1] != "over", o[0]))


# --------------------------------------------------------------------------- texts


def pad_cells_text(pad: str, side: int) -> str:
    """A Pad side in one line: "prod research ▲price / logistics improve ·"."""
    grid = pads.pad_cells(pad, side)
    return " / ".join(" ".join(words.SYMBOL_SHORT.get(c, "·") if c else "·" for c in row) for row in grid)


def describe_draft(d: Draft, ctx: PlanContext) -> str:
    """The planner text: what is set so far, what it does, what to do next."""
    lines = []
    if d.bottom is not None:
        lines.append(f"Bottom: Pad {d.bottom} side {(d.bottom_side or 0) + 1}")
    if d.top_side is not None:
        top = f"Top: Pad {d.top} side {d.top_side + 1}"
        if d.rot is not None:
            top += f", turned {d.rot * 90}°"
        if d.x is not None and d.y is not None and d.rot is not None:  # (cells as the picture labels them)
            cells = sorted(pads.top_pad_positions(d.rot, d.x, d.y), key=lambda c: (c[1], c[0]))
            top += f", on {cell_name(*cells[0], _origin(d, ctx))}–{cell_name(*cells[-1], _origin(d, ctx))}"
        lines.append(top)
    for p in d.improvements:
        where = "on top" if p.layer == "over" else "under the top Pad"
        label = words.improvement_label(p.id)
        spot = " and ".join(cell_name(*c, _origin(d, ctx)) for c in pads.improvement_positions(p.x, p.y, p.rot))
        lines.append(f"{label[:1].upper()}{label[1:]} on {spot}, {where}")
    unplaced = [i for i in ctx.owned if i not in {p.id for p in d.improvements}]
    face_down = face_down_goods(unplaced)
    if face_down and d.pads_complete():
        lines.append("Face down (1 Goods each): " + ", ".join(words.improvement_label(i) for i in face_down))
    minis = [i for i in unplaced if i not in face_down]
    if minis and d.pads_complete():
        lines.append("Not placed (a Mini-upgrade gives nothing then): " + ", ".join(words.improvement_label(i) for i in minis))
    ev = evaluate(d, ctx)
    if ev is not None:
        lines.append("**This plan gives:** " + words.outcome_summary(ev))
        means = what_it_means(ev["yields"]["price"], ev["yields"]["goods"], ctx)
        if means:
            lines.append(means[0].upper() + means[1:] + ".")
    elif d.pads_complete():
        why = problem(d, ctx)
        if why:
            lines.append(f"⚠️ {why}")
    lines.append("")
    lines.append(STEP_TITLES.get(d.step, ""))
    return "\n".join(lines).strip()
