"""Phase 1 Planning: the geometry of the two Pads and the Improvements on them.

Rulebook sections: "Phase 1. Planning", "Using Improvements", the 4G Technology
and the FAQ (checklist ids SI-PLAN-02..10, SI-PROD-02, SI-TECH-13).

Grid
----
All positions are integer grid cells ``(x, y)``; ``x`` grows to the right,
``y`` grows downwards. The *bottom* Pad is fixed and unrotated: its cells are
``x = 0..2`` (columns) and ``y = 0..1`` (rows), row 0 on top, exactly as the
side is printed in ``data/pads.json``. Any decision can be turned on the table
so that its bottom Pad lies like that, so this loses nothing.

Plan notation (a JSON-able dict)
--------------------------------
::

    {
      "bottom": {"pad": "A", "side": 0},
      "top": {"side": 1, "rot": 0, "x": 1, "y": 1},
      "improvements": [
        {"id": "I07", "x": 0, "y": 0, "rot": 0, "layer": "over"}
      ]
    }

* ``bottom.pad`` is ``"A"`` (filled diamond) or ``"B"`` (outlined diamond);
  the top Pad is always the other one. ``side`` is 0 or 1 (either side up,
  SI-PLAN-02).
* ``top`` may also carry ``"pad"``; it must then name the other Pad and is
  dropped from the canonical form.
* ``top.rot`` is the number of quarter turns clockwise (0..3). The Pads are
  always parallel or perpendicular (SI-PLAN-03): the grid cannot express
  anything else. ``top.x``/``top.y`` is the grid position of the top-left cell
  of the rotated Pad's bounding box (3 wide x 2 high when ``rot`` is even,
  2 wide x 3 high when odd).
* The top Pad must cover 1 to 4 cells of the bottom Pad (SI-PLAN-04, FAQ).
* ``improvements`` lists the Improvements placed face up, lowest first.
  An Improvement is a domino of two cells ``cells[0]``/``cells[1]``
  (``improvement_cells``). With ``(x, y)`` and ``rot``:

  ====  ======================  ======================
  rot   cells[0]                cells[1]
  ====  ======================  ======================
  0     (x, y)                  (x + 1, y)
  1     (x, y)                  (x, y + 1)
  2     (x + 1, y)              (x, y)
  3     (x, y + 1)              (x, y)
  ====  ======================  ======================

  ``layer`` is ``"under"`` (on the bottom Pad, beneath the top Pad: both
  cells on bottom-Pad cells; it may be partly or wholly hidden by the top
  Pad, SI-PLAN-09 and FAQ) or ``"over"`` (on top of both Pads: each cell on
  a cell of either Pad, SI-PLAN-06). ``layer`` defaults to ``"over"`` when
  omitted. With 4G one cell of an ``"over"`` Improvement may lie off the
  Pads (at least one cell stays on a Pad, SI-TECH-13).
* Improvements may overlap, but none may fully cover another one, i.e. no
  two Improvements may occupy the same two grid cells, whatever their
  layers (SI-PLAN-08). Two Improvements that together hide a third are
  allowed: the rule forbids *one* Improvement fully covering another.
* Every owned Improvement that is not listed is face down in front of the
  player and produces 1 Goods in Phase 3 (SI-PLAN-10). An id may appear
  once and must be owned.

The canonical form returned by :func:`validate_plan` has every key, plain
ints, and the "under" Improvements before the "over" ones (each group in the
given order), which is the true stacking order.

What is visible
---------------
At each grid position the top-most item shows: "over" Improvements (later
above earlier) > top Pad > "under" Improvements (later above earlier) >
bottom Pad. Visible symbols are active, covered ones inactive, empty cells
(``None``) are open (SI-PLAN-05, SI-PLAN-07). ``covered`` counts the cells
of the bottom Pad under the top Pad (1..4); cells hidden only by
Improvements do not count (SI-PROD-02).

One-line notation (``format_plan`` / ``parse_plan``)
----------------------------------------------------
::

    A0/B1 r0 @1,1 | S-green 0,1 r0 under | I07 0,0 r0 over

``<bottom pad><side>/<top pad><side> r<top rot> @<top x>,<top y>``, then for
each Improvement, lowest first, `` | <id> <x>,<y> r<rot> <layer>``. Spaces
around ``|`` are optional; pad letters and the layer are case-insensitive;
the layer may be omitted (``over``).

Enumerations
------------
:func:`all_arrangements` lists the 480 raw Pad arrangements: 2 bottom Pads x
2 bottom sides x 2 top sides x 60 top placements. The 60: with the top Pad
horizontal (rot 0 or 2) its 3x2 box overlaps the bottom at 5 x-offsets x 3
y-offsets = 15 positions, one of which covers all 6 cells, leaving 14 per
rotation (28); vertical (rot 1 or 3) its 2x3 box overlaps at 4 x 4 = 16
positions, all covering 1 to 4 cells (32). No side is symmetric under a half
turn, so all four rotations differ. :func:`arrangements` keeps the first of
each distinct effect (active counts, covered).

The distinct decisions a company can reach, and samples of them, are listed by
:mod:`engine.smartphone_inc.decisions`.
"""

from __future__ import annotations

import marshal
import re
from functools import cache, lru_cache
from typing import Any

from engine.errors import IllegalAction
from engine.smartphone_inc.data import IMPROVEMENTS, PADS, SYMBOLS, improvement_name

__all__ = [
    "PAD_IDS",
    "SYMBOLS",
    "LAYERS",
    "IMPROVEMENT_IDS",
    "STARTING_IMPROVEMENT_IDS",
    "pad_cells",
    "improvement_cells",
    "improvement_positions",
    "top_pad_positions",
    "validate_plan",
    "evaluate",
    "evaluated",
    "all_arrangements",
    "arrangements",
    "format_plan",
    "parse_plan",
]

Pos = tuple[int, int]
Plan = dict[str, Any]

LAYERS: tuple[str, ...] = ("under", "over")

# Coordinates a plan may use at all; anything farther is refused before any geometry.
COORD_MIN, COORD_MAX = -6, 6
MAX_LISTED = 64

# --------------------------------------------------------------------------- data
# (loaded and validated once, in data.py)

_PADS = PADS
_IMPROVEMENTS = IMPROVEMENTS

PAD_IDS: tuple[str, ...] = ("A", "B")
IMPROVEMENT_IDS: tuple[str, ...] = tuple(i for i in _IMPROVEMENTS if not i.startswith(("S-", "M")))
STARTING_IMPROVEMENT_IDS: tuple[str, ...] = tuple(i for i in _IMPROVEMENTS if i.startswith("S-"))
_IDS_FOLDED = {i.casefold(): i for i in _IMPROVEMENTS}


def _other(pad: str) -> str:
    return "B" if pad == "A" else "A"


def pad_cells(pad: str, side: int) -> tuple[tuple[str | None, ...], ...]:
    """The printed side of a Pad: 2 rows of 3 symbols (``None`` = open cell)."""
    if pad not in _PADS or side not in (0, 1):
        raise IllegalAction(f"There is no Pad {pad!r} side {side!r}.")
    return _PADS[pad][side]


def improvement_cells(imp_id: str) -> tuple[str | None, str | None]:
    """The two halves ``(cells[0], cells[1])`` of an Improvement ("I01".."I27", "S-green"...)."""
    if not isinstance(imp_id, str) or imp_id not in _IMPROVEMENTS:
        raise IllegalAction(f"There is no Improvement {imp_id!r}.")
    return _IMPROVEMENTS[imp_id]


# ----------------------------------------------------------------------- geometry

_BOTTOM: tuple[Pos, ...] = tuple((x, y) for y in range(2) for x in range(3))
_BOTTOM_SET = frozenset(_BOTTOM)


def _rot_offset(col: int, row: int, rot: int) -> Pos:
    """Where printed cell (col, row) of a 3x2 side lands after ``rot`` quarter turns clockwise."""
    if rot == 0:
        return col, row
    if rot == 1:
        return 1 - row, col
    if rot == 2:
        return 2 - col, 1 - row
    return row, 2 - col


# _ROT[rot] = offsets of the printed cells in row-major order (index = row * 3 + col)
_ROT: tuple[tuple[Pos, ...], ...] = tuple(
    tuple(_rot_offset(c, r, rot) for r in range(2) for c in range(3)) for rot in range(4)
)


@cache  # a few hundred (rot, x, y) ever: every plan checked reads its top Pad's cells
def top_pad_positions(rot: int, x: int, y: int) -> tuple[Pos, ...]:
    """Grid positions of the top Pad's printed cells (row-major order of the printed side)."""
    return tuple((x + dx, y + dy) for dx, dy in _ROT[rot])


@cache
def _top_geometry(rot: int, x: int, y: int) -> tuple[frozenset[Pos], frozenset[Pos], frozenset[Pos]]:
    """(cells of the top Pad, those over the bottom Pad, cells of either Pad) of a top Pad
    at ``x``, ``y`` turned ``rot``."""
    top = frozenset(top_pad_positions(rot, x, y))
    return top, top & _BOTTOM_SET, top | _BOTTOM_SET


def _top_symbols(pad: str, side: int, rot: int, x: int, y: int) -> dict[Pos, str | None]:
    rows = _PADS[pad][side]
    flat = [rows[r][c] for r in range(2) for c in range(3)]
    return dict(zip(top_pad_positions(rot, x, y), flat, strict=True))


def _bottom_symbols(pad: str, side: int) -> dict[Pos, str | None]:
    rows = _PADS[pad][side]
    return {(x, y): rows[y][x] for (x, y) in _BOTTOM}


@cache
def _bottom_shown(pad: str, side: int) -> dict[Pos, tuple[str | None, str, str]]:
    """{position: (symbol, item, "bottom")} of a bottom Pad (read only: copied by evaluate)."""
    return {pos: (sym, f"{pad}{side}", "bottom") for pos, sym in _bottom_symbols(pad, side).items()}


@cache
def _top_shown(pad: str, side: int, rot: int, x: int, y: int) -> dict[Pos, tuple[str | None, str, str]]:
    """{position: (symbol, item, "top")} of a top Pad (read only)."""
    return {pos: (sym, f"{pad}{side}", "top") for pos, sym in _top_symbols(pad, side, rot, x, y).items()}


def improvement_positions(x: int, y: int, rot: int) -> tuple[Pos, Pos]:
    """Grid positions of ``(cells[0], cells[1])`` of an Improvement at (x, y) with ``rot``."""
    if rot == 0:
        return (x, y), (x + 1, y)
    if rot == 1:
        return (x, y), (x, y + 1)
    if rot == 2:
        return (x + 1, y), (x, y)
    return (x, y + 1), (x, y)


def touches_pads(top: dict[str, Any], x: int, y: int, rot: int) -> bool:
    """Whether an Improvement at ``x``, ``y`` turned ``rot`` has a cell on the Pads of a
    plan whose top Pad is ``top`` (its ``rot``, ``x``, ``y``). One that has none is never
    legal (:func:`validate_plan`), whatever its layer: a planner listing the places of
    an Improvement skips those without checking the whole plan."""
    p0, p1 = improvement_positions(x, y, rot)
    if p0 in _BOTTOM_SET or p1 in _BOTTOM_SET:
        return True
    top_cells = top_pad_positions(top["rot"], top["x"], top["y"])
    return p0 in top_cells or p1 in top_cells


@cache
def _placement_for(p0: Pos, p1: Pos) -> tuple[int, int, int]:
    """(x, y, rot) that puts cells[0] at p0 and cells[1] at p1 (adjacent positions)."""
    dx, dy = p1[0] - p0[0], p1[1] - p0[1]
    if (dx, dy) == (1, 0):
        return p0[0], p0[1], 0
    if (dx, dy) == (0, 1):
        return p0[0], p0[1], 1
    if (dx, dy) == (-1, 0):
        return p1[0], p1[1], 2
    if (dx, dy) == (0, -1):
        return p1[0], p1[1], 3
    raise ValueError(f"{p0} and {p1} are not adjacent")


def _neighbours(p: Pos) -> tuple[Pos, ...]:
    x, y = p
    return (x + 1, y), (x, y + 1), (x - 1, y), (x, y - 1)


# --------------------------------------------------------------------- validation


def _fail(message: str) -> IllegalAction:
    return IllegalAction(message)


def _int(value: Any, what: str, lo: int, hi: int) -> int:
    if type(value) is int and lo <= value <= hi:  # the usual case, first (a planner checks 10^5 plans)
        return value
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(f"{what} must be a whole number from {lo} to {hi}, not {_short(value)}.")
    if not lo <= value <= hi:
        raise _fail(f"{what} must be from {lo} to {hi}, not {value}.")
    return int(value)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _keys(obj: Any, what: str, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict:
    if type(obj) is dict and len(obj) == len(required) and all(key in obj for key in required):
        return obj  # the usual case, first: exactly the required keys
    if not isinstance(obj, dict):
        raise _fail(f"{what} must be an object with {', '.join(required)}.")
    for key in obj:
        if key not in required and key not in optional:
            raise _fail(f"{what} has an unknown field {_short(key)}.")
    for key in required:
        if key not in obj:
            raise _fail(f"{what} is missing {key!r}.")
    return obj


_BOTTOM_KEYS = frozenset(("pad", "side"))
_TOP_KEYS = frozenset(("side", "rot", "x", "y"))
_PLAN_REQUIRED = frozenset(("bottom", "top"))
_PLAN_KEYS = _PLAN_REQUIRED | {"improvements"}
_ITEM_REQUIRED = frozenset(("id", "x", "y", "rot"))
_ITEM_KEYS = _ITEM_REQUIRED | {"layer"}


def _structure(plan: Any) -> Plan:
    """Check types, keys and ranges (not geometry, not ownership); return a canonical copy."""
    if type(plan) is not dict or not _PLAN_KEYS >= plan.keys() >= _PLAN_REQUIRED:  # the usual case first
        plan = _keys(plan, "The plan", ("bottom", "top"), ("improvements",))
    bottom = plan["bottom"]
    if type(bottom) is not dict or bottom.keys() != _BOTTOM_KEYS:
        bottom = _keys(bottom, "The bottom Pad", ("pad", "side"))
    pad = bottom["pad"]
    if not isinstance(pad, str) or pad not in PAD_IDS:
        raise _fail(f"The bottom Pad must be 'A' or 'B', not {_short(pad)}.")
    bside = _int(bottom["side"], "The bottom Pad's side", 0, 1)
    top = plan["top"]
    if type(top) is not dict or top.keys() != _TOP_KEYS:
        top = _keys(top, "The top Pad", ("side", "rot", "x", "y"), ("pad",))
    if "pad" in top and top["pad"] != _other(pad):
        raise _fail(f"The top Pad must be Pad {_other(pad)} (the bottom one is {pad}).")
    tside = _int(top["side"], "The top Pad's side", 0, 1)
    trot = _int(top["rot"], "The top Pad's rotation", 0, 3)
    tx = _int(top["x"], "The top Pad's x", COORD_MIN, COORD_MAX)
    ty = _int(top["y"], "The top Pad's y", COORD_MIN, COORD_MAX)
    imps = plan.get("improvements", [])
    if not isinstance(imps, list):
        raise _fail("The Improvements must be a list.")
    if len(imps) > MAX_LISTED:
        raise _fail(f"Too many Improvements listed ({len(imps)}).")
    under: list[dict[str, Any]] = []
    over: list[dict[str, Any]] = []
    for n, item in enumerate(imps, 1):
        # the usual case is checked first, without writing the names of the messages
        if type(item) is not dict or not _ITEM_KEYS >= item.keys() >= _ITEM_REQUIRED:
            item = _keys(item, f"Improvement #{n}", ("id", "x", "y", "rot"), ("layer",))
        imp_id = item["id"]
        if not isinstance(imp_id, str) or imp_id not in _IMPROVEMENTS:
            raise _fail(f"Improvement #{n}: there is no Improvement {_short(imp_id)}.")
        ix, iy, irot = item["x"], item["y"], item["rot"]
        if type(ix) is not int or not COORD_MIN <= ix <= COORD_MAX:
            ix = _int(ix, f"{imp_id}'s x", COORD_MIN, COORD_MAX)
        if type(iy) is not int or not COORD_MIN <= iy <= COORD_MAX:
            iy = _int(iy, f"{imp_id}'s y", COORD_MIN, COORD_MAX)
        if type(irot) is not int or not 0 <= irot <= 3:
            irot = _int(irot, f"{imp_id}'s rotation", 0, 3)
        layer = item.get("layer", "over")
        if not isinstance(layer, str) or layer not in LAYERS:
            raise _fail(f"{imp_id}'s layer must be 'under' or 'over', not {_short(layer)}.")
        entry = {"id": imp_id, "x": ix, "y": iy, "rot": irot, "layer": layer}
        (under if layer == "under" else over).append(entry)
    return {
        "bottom": {"pad": pad, "side": bside},
        "top": {"side": tside, "rot": trot, "x": tx, "y": ty},
        "improvements": under + over,
    }


def canonical_plan(plan: Any) -> Plan:
    """A plan's canonical copy (types, keys, ranges checked; no geometry, no ownership)."""
    return _structure(plan)


def _owned_list(owned: Any) -> list[str]:
    if isinstance(owned, (str, bytes)) or not isinstance(owned, (list, tuple, set, frozenset)):
        raise TypeError("owned must be a list of Improvement ids")
    out = []
    for imp_id in owned:
        if not isinstance(imp_id, str):
            raise TypeError(f"owned Improvement ids must be strings, not {imp_id!r}")
        out.append(imp_id)
    return out


def _the(imp_id: str) -> str:
    """"The Improvement (...)" at the start of a message (players never read ids)."""
    return "The " + improvement_name(imp_id)


def validate_plan(plan: Any, owned: list[str], has_4g: bool) -> Plan:
    """Check a decision against the Planning rules; return its canonical copy.

    Raises :class:`IllegalAction` with a player-facing message for anything
    malformed or illegal. ``plan`` is never modified.
    """
    owned_ids = _owned_list(owned)
    canon = _structure(plan)
    top = canon["top"]
    _top_cells, under_top, pads_cells = _top_geometry(top["rot"], top["x"], top["y"])
    covered = len(under_top)
    if not 1 <= covered <= 4:
        detail = "the Pads must overlap" if covered == 0 else "it may not hide the whole bottom Pad"
        raise _fail(
            f"The top Pad must cover 1 to 4 cells of the bottom Pad; it covers {covered} ({detail})."
        )
    seen: dict[str, int] = {}
    footprints: dict[tuple[Pos, Pos], str] = {}  # the two cells of each, lower first
    owned_set = set(owned_ids)
    for item in canon["improvements"]:
        imp_id = item["id"]
        if imp_id in seen:
            raise _fail(f"{_the(imp_id)} is listed twice; each Improvement can be placed once.")
        seen[imp_id] = 1
        if imp_id not in owned_set:
            raise _fail(f"You do not own the {improvement_name(imp_id)}.")
        p0, p1 = improvement_positions(item["x"], item["y"], item["rot"])
        if item["layer"] == "under":
            if p0 not in _BOTTOM_SET or p1 not in _BOTTOM_SET:
                off = [p for p in (p0, p1) if p not in _BOTTOM_SET]
                raise _fail(
                    f"{_the(imp_id)} lies under the top Pad, so both its cells must be on the bottom Pad "
                    f"(cell {off[0][0]},{off[0][1]} is not)."
                )
        elif p0 not in pads_cells or p1 not in pads_cells:
            off = [p for p in (p0, p1) if p not in pads_cells]
            if len(off) == 2:
                raise _fail(f"{_the(imp_id)} must be placed on your Pads (it lies entirely off them).")
            if not has_4g:
                raise _fail(
                    f"{_the(imp_id)} may not extend beyond the edge of your Pads (cell {off[0][0]},{off[0][1]}); "
                    "only 4G allows that."
                )
        foot = (p0, p1) if p0 < p1 else (p1, p0)
        earlier_id = footprints.get(foot)
        if earlier_id is not None:
            raise _fail(
                f"{_the(imp_id)} would fully cover the {improvement_name(earlier_id)}; Improvements may overlap "
                "but one may never fully cover another."
            )
        footprints[foot] = imp_id
    return canon


# --------------------------------------------------------------------- evaluation


def _layers(canon: Plan) -> list[tuple[Pos, str | None, str, str]]:
    """(position, symbol, item, layer) from the lowest to the highest."""
    out: list[tuple[Pos, str | None, str, str]] = []
    b = canon["bottom"]
    t = canon["top"]
    top_pad = _other(b["pad"])
    for pos, sym in _bottom_symbols(b["pad"], b["side"]).items():
        out.append((pos, sym, f"{b['pad']}{b['side']}", "bottom"))
    imps = canon["improvements"]
    for layer in LAYERS:
        if layer == "over":
            for pos, sym in _top_symbols(top_pad, t["side"], t["rot"], t["x"], t["y"]).items():
                out.append((pos, sym, f"{top_pad}{t['side']}", "top"))
        for item in imps:
            if item["layer"] != layer:
                continue
            cells = _IMPROVEMENTS[item["id"]]
            for pos, sym in zip(improvement_positions(item["x"], item["y"], item["rot"]), cells, strict=True):
                out.append((pos, sym, item["id"], layer))
    return out


def _row_major(p: Pos) -> tuple[int, int]:
    return p[1], p[0]


def evaluate(plan: Any, owned: list[str], has_4g: bool, literal_cover: bool = False) -> dict[str, Any]:
    """Validate ``plan`` and describe its effect.

    ``literal_cover`` (games of rules version 2 on, DATA.md): a bottom-Pad cell under
    the top Pad that also lies under an "under" Improvement is covered by that
    Improvement and makes no Goods ("cells covered by Improvements do not produce
    additional Goods"), so ``covered`` may then be 0..4.

    Returns ``{"active": {symbol: count for the 6 symbols}, "covered": 1..4,
    "face_down": [owned ids not placed, sorted], "grid": [{"x", "y", "symbol",
    "item", "layer"} for every visible position, row by row]}``. ``item`` is
    "A0".."B1" for a Pad side or an Improvement id; ``layer`` is "bottom",
    "top", "under" or "over"; ``symbol`` is ``None`` for an open cell.
    """
    canon = validate_plan(plan, owned, has_4g)
    b, t = canon["bottom"], canon["top"]
    # what _layers lists, lowest first, each position keeping the highest
    visible = dict(_bottom_shown(b["pad"], b["side"]))
    imps = canon["improvements"]  # the "under" ones first (canonical order)
    over = 0
    for item in imps:
        if item["layer"] != "under":
            break
        over += 1
        imp_id = item["id"]
        p0, p1 = improvement_positions(item["x"], item["y"], item["rot"])
        c0, c1 = _IMPROVEMENTS[imp_id]
        visible[p0] = (c0, imp_id, "under")
        visible[p1] = (c1, imp_id, "under")
    visible.update(_top_shown(_other(b["pad"]), t["side"], t["rot"], t["x"], t["y"]))
    for item in imps[over:]:
        imp_id = item["id"]
        p0, p1 = improvement_positions(item["x"], item["y"], item["rot"])
        c0, c1 = _IMPROVEMENTS[imp_id]
        visible[p0] = (c0, imp_id, "over")
        visible[p1] = (c1, imp_id, "over")
    active = dict.fromkeys(SYMBOLS, 0)
    grid = []
    for pos in sorted(visible, key=_row_major):
        sym, item_name, layer = visible[pos]
        if sym is not None:
            active[sym] += 1
        grid.append({"x": pos[0], "y": pos[1], "symbol": sym, "item": item_name, "layer": layer})
    under_top = _top_geometry(t["rot"], t["x"], t["y"])[1]
    if literal_cover:
        for item in imps[:over]:
            under_top = under_top - frozenset(improvement_positions(item["x"], item["y"], item["rot"]))
    covered = len(under_top)
    placed = {item["id"] for item in imps}
    face_down = sorted(i for i in set(_owned_list(owned)) if i not in placed)
    return {"active": active, "covered": covered, "face_down": face_down, "grid": grid}


def evaluated(plan: Any, owned: list[str], has_4g: bool, literal_cover: bool = False) -> dict[str, Any]:
    """:func:`evaluate`, remembered for the plans seen last (every view of a seat with a
    sealed plan evaluates it again); a fresh copy each time, the same errors."""
    try:
        key_plan, key_owned = marshal.dumps(plan), marshal.dumps(owned)
    except ValueError:  # not plain data: no memory
        return evaluate(plan, owned, has_4g, literal_cover)
    return marshal.loads(_evaluated(key_plan, key_owned, bool(has_4g), bool(literal_cover)))


@lru_cache(maxsize=512)
def _evaluated(plan: bytes, owned: bytes, has_4g: bool, literal_cover: bool) -> bytes:
    """The marshalled :func:`evaluate` of the marshalled plan and owned list (a pure
    function of their values; a refused plan raises each time, nothing is kept)."""
    return marshal.dumps(evaluate(marshal.loads(plan), marshal.loads(owned), has_4g, literal_cover))


# ------------------------------------------------------------------- arrangements

# The 60 top-Pad placements (rot, x, y, covered) in a stable order: rot, then y, then x.
_PLACEMENTS: tuple[tuple[int, int, int, int], ...] = tuple(
    (rot, x, y, cov)
    for rot in range(4)
    for y in range(-3, 3)
    for x in range(-3, 4)
    if 1 <= (cov := len(frozenset(top_pad_positions(rot, x, y)) & _BOTTOM_SET)) <= 4
)

# The 480 arrangements (bottom pad, bottom side, top side, placement index), stable order.
_ARRANGEMENTS: tuple[tuple[str, int, int, int], ...] = tuple(
    (pad, bside, tside, k)
    for pad in PAD_IDS
    for bside in (0, 1)
    for tside in (0, 1)
    for k in range(len(_PLACEMENTS))
)


def _arrangement_plan(index: int) -> Plan:
    pad, bside, tside, k = _ARRANGEMENTS[index]
    rot, x, y, _cov = _PLACEMENTS[k]
    return {
        "bottom": {"pad": pad, "side": bside},
        "top": {"side": tside, "rot": rot, "x": x, "y": y},
        "improvements": [],
    }


@cache
def _arrangement_surface(index: int) -> tuple[tuple[Pos, ...], tuple[str | None, ...]]:
    """Visible Pad positions (row-major) and their symbols for an arrangement."""
    pad, bside, tside, k = _ARRANGEMENTS[index]
    rot, x, y, _cov = _PLACEMENTS[k]
    vis: dict[Pos, str | None] = _bottom_symbols(pad, bside)
    vis.update(_top_symbols(_other(pad), tside, rot, x, y))
    order = tuple(sorted(vis, key=lambda p: (p[1], p[0])))
    return order, tuple(vis[p] for p in order)


def all_arrangements() -> list[Plan]:
    """All 480 raw Pad arrangements without Improvements (see the module docstring)."""
    return [_arrangement_plan(i) for i in range(len(_ARRANGEMENTS))]


# An outcome is packed into one int whose order is the sort order of the results:
# covered (bits 42..), then number face down (bits 36..41), then the active counts,
# 6 bits each, SYMBOLS[0] most significant.
_BITS = 6
_WEIGHT = {s: 1 << (_BITS * (len(SYMBOLS) - 1 - i)) for i, s in enumerate(SYMBOLS)}
_COUNT_BITS = _BITS * len(SYMBOLS)
_DIGIT = (1 << _BITS) - 1
_COUNT_MASK = (1 << _COUNT_BITS) - 1
_NFD_SHIFT = _COUNT_BITS
_COV_SHIFT = _COUNT_BITS + 6


def _code(sym: str | None) -> int:
    return 0 if sym is None else _WEIGHT[sym]


def _decode(counts: int) -> dict[str, int]:
    return {s: (counts // _WEIGHT[s]) & _DIGIT for s in SYMBOLS}


@lru_cache(maxsize=1)
def _distinct_arrangement_indexes() -> tuple[int, ...]:
    seen: set[tuple[int, int]] = set()
    keep = []
    for i, (_pad, _bs, _ts, k) in enumerate(_ARRANGEMENTS):
        _order, syms = _arrangement_surface(i)
        key = (sum(_code(s) for s in syms), _PLACEMENTS[k][3])
        if key not in seen:
            seen.add(key)
            keep.append(i)
    return tuple(keep)


def arrangements() -> list[Plan]:
    """One plan per distinct effect (active counts, covered) of the bare Pads, first in stable order."""
    return [_arrangement_plan(i) for i in _distinct_arrangement_indexes()]


# ----------------------------------------------------------------- text notation


def format_plan(plan: Any) -> str:
    """One line: ``A0/B1 r0 @1,1 | I07 0,0 r0 over`` (see the module docstring).

    Checks the plan's structure (not its geometry) and raises
    :class:`IllegalAction` when it is malformed.
    """
    canon = _structure(plan)
    b, t = canon["bottom"], canon["top"]
    parts = [f"{b['pad']}{b['side']}/{_other(b['pad'])}{t['side']} r{t['rot']} @{t['x']},{t['y']}"]
    for item in canon["improvements"]:
        parts.append(f"{item['id']} {item['x']},{item['y']} r{item['rot']} {item['layer']}")
    return " | ".join(parts)


_HEAD = re.compile(r"([AB])([01])\s*/\s*([AB])([01])\s+r([0-3])\s+@\s*(-?\d{1,2})\s*,\s*(-?\d{1,2})", re.I)
_ITEM = re.compile(r"(\S+)\s+(-?\d{1,2})\s*,\s*(-?\d{1,2})\s+r([0-3])(?:\s+(over|under))?", re.I)


def parse_plan(text: Any) -> Plan:
    """Read the one-line notation back into a canonical-shaped plan dict.

    Checks the syntax and the structure, not the geometry or ownership: call
    :func:`validate_plan` on the result. Raises :class:`IllegalAction`.
    """
    if not isinstance(text, str):
        raise _fail("A plan must be written as text, e.g. 'A0/B1 r0 @1,1 | I07 0,0 r0 over'.")
    if len(text) > 2000:
        raise _fail("That plan is too long.")
    parts = [p.strip() for p in text.strip().split("|")]
    head = _HEAD.fullmatch(parts[0])
    if head is None:
        raise _fail(
            f"Cannot read the Pads in {_short(parts[0])}; write them like 'A0/B1 r0 @1,1' "
            "(bottom Pad and side / top Pad and side, rotation, top-left position)."
        )
    bpad, bside, tpad, tside, trot, tx, ty = head.groups()
    bpad, tpad = bpad.upper(), tpad.upper()
    if tpad == bpad:
        raise _fail(f"The two Pads must be A and B, not {bpad} and {tpad}.")
    improvements = []
    for part in parts[1:]:
        m = _ITEM.fullmatch(part)
        if m is None:
            raise _fail(f"Cannot read the Improvement {_short(part)}; write it like 'I07 0,0 r0 over'.")
        imp_id, x, y, rot, layer = m.groups()
        improvements.append(
            {
                "id": _IDS_FOLDED.get(imp_id.casefold(), imp_id),
                "x": int(x),
                "y": int(y),
                "rot": int(rot),
                "layer": (layer or "over").lower(),
            }
        )
    plan = {
        "bottom": {"pad": bpad, "side": int(bside)},
        "top": {"side": int(tside), "rot": int(trot), "x": int(tx), "y": int(ty)},
        "improvements": improvements,
    }
    return _structure(plan)
