"""FROZEN REFERENCE: ``engine/smartphone_inc/decisions.py`` as it was before the plan
enumeration was made fast (commit d1455f7), kept unchanged so that
``tests/test_plan_enumeration.py`` can check that the fast implementation gives the
same distinct outcomes, in the same order, with the same plans. It computes its own
tables (seconds with 4G): use it only in tests.

Original docstring:

The distinct decisions of Phase 1: every outcome a company can reach with its Pads
and Improvements (for the plan picker and the greedy player), and samples of legal
plans (for the random player and ``legal_actions``). The geometry and the rules of a
single plan are in :mod:`engine.smartphone_inc.pads`.

:func:`distinct_outcomes` enumerates, for every arrangement, these
Improvement placements, never overlapping one another:

* "over" on two adjacent visible Pad cells (both halves show, both cells
  below are hidden);
* with 4G, "over" with one cell on a Pad and one off the Pads (both halves
  show, one Pad cell is hidden);
* "under" with one cell on an uncovered bottom-Pad cell and the other under
  the top Pad (the half of the player's choice shows; one cell is hidden).

It leaves out overlapping Improvements and Improvements wholly hidden under
the top Pad (such an Improvement has exactly the effect of lying face down
minus its Goods). With one Improvement this is every other reachable
outcome (the tests compare it with a brute force over all positions). An outcome is
(active counts, covered, number face down). With 6 Improvements there are
about 25,000 outcomes (65,000 with 4G); ``with_plans=False`` skips building
their plan dicts and :func:`outcome_plan` builds the one plan chosen.

:func:`sample_plans` draws legal plans from every kind of placement,
overlapping ones included, from a PRNG seeded with its ``salt``.
"""

from __future__ import annotations

import gc
import zlib
from functools import cache
from typing import Any

from engine import rng as _rng
from engine.errors import IllegalAction
from engine.smartphone_inc.pads import (
    _ARRANGEMENTS,
    _BOTTOM_SET,
    _COUNT_MASK,
    _COV_SHIFT,
    _IMPROVEMENTS,
    _NFD_SHIFT,
    _PLACEMENTS,
    Plan,
    Pos,
    _arrangement_plan,
    _arrangement_surface,
    _code,
    _decode,
    _neighbours,
    _owned_list,
    _placement_for,
    format_plan,
    improvement_cells,
    improvement_positions,
    top_pad_positions,
    validate_plan,
)

__all__ = ["distinct_outcomes", "outcome_plan", "sample_plans"]


# -------------------------------------------------------------- distinct outcomes
#
# Per top-Pad placement ("shape", the same for the 8 arrangements that share it)
# the *slots* are the ways one Improvement can lie without overlapping another:
#   ("pair", p, q)  over, on two adjacent visible cells; hides p and q; shows both halves
#   ("edge", p, o)  over, 4G: p visible, o off the Pads; hides p; shows both halves
#   ("half", p, q)  under: p an uncovered bottom cell, q a bottom cell under the top Pad;
#                   hides p; shows one half (the player picks which by rotating it)
# A *pattern* is (mask of hidden visible cells, f = slots showing both halves,
# h = slots showing one half) with a packing (list of slots) achieving it.

_Slot = tuple[str, Pos, Pos]
_Skeleton = tuple[
    tuple[str, int, int, int, int, int],
    tuple[tuple[int, int, int], ...],
    tuple[tuple[tuple[int, int, int], tuple[int, int, int]], ...],
]
_TableGroup = tuple[list[int], list[int], list[_Skeleton | None]]


@cache
def _shape_slots(k: int, has_4g: bool) -> tuple[tuple[Pos, ...], tuple[tuple[int, int, int, _Slot], ...]]:
    rot, x, y, _cov = _PLACEMENTS[k]
    top = frozenset(top_pad_positions(rot, x, y))
    surface = tuple(sorted(top | _BOTTOM_SET, key=lambda p: (p[1], p[0])))
    index = {p: i for i, p in enumerate(surface)}
    hidden_bottom = _BOTTOM_SET & top
    resources: dict[tuple[str, Pos], int] = {}

    def bit(kind: str, p: Pos) -> int:
        return 1 << resources.setdefault((kind, p), len(resources))

    def private(o: Pos) -> bool:
        return sum(1 for r in _neighbours(o) if r in index) == 1

    slots: list[tuple[int, int, int, _Slot]] = []
    for p in surface:
        outside = [q for q in _neighbours(p) if q not in index]
        # An off-edge cell that touches no other visible cell can never be wanted by
        # another Improvement: when p has one, it is the only off-edge slot p needs.
        mine = [q for q in outside if private(q)]
        for q in _neighbours(p):
            if q in index:
                if index[q] > index[p]:
                    slots.append((bit("s", p) | bit("s", q), (1 << index[p]) | (1 << index[q]), 1, ("pair", p, q)))
            elif has_4g and (q == mine[0] if mine else True):
                slots.append((bit("s", p) | bit("o", q), 1 << index[p], 1, ("edge", p, q)))
            if p in _BOTTOM_SET and p not in top and q in hidden_bottom:
                slots.append((bit("s", p) | bit("h", q), 1 << index[p], 0, ("half", p, q)))
    return surface, tuple(slots)


def _shape_patterns(k: int, has_4g: bool, nmax: int) -> dict[int, int]:
    """For one shape: {hidden mask: bitset of the (f, h) with a packing of at most nmax slots}.

    Bit ``f * 16 + h`` of the bitset is set when some packing hides exactly the
    mask with ``f`` slots showing both halves and ``h`` showing one half.
    """
    _surface, slots = _shape_slots(k, has_4g)
    n = len(slots)
    # resources that slots j.. can still use: other bits no longer matter for the future
    future = [0] * (n + 1)
    for j in range(n - 1, -1, -1):
        future[j] = future[j + 1] | slots[j][0]
    fh: dict[int, int] = {0: 1}
    seen: set[tuple[int, int, int, int, int]] = set()
    stack: list[tuple[int, int, int, int, int]] = [(0, 0, 0, 0, 0)]
    while stack:
        j, used, hm, f, h = stack.pop()
        if f + h >= nmax:
            continue
        for i in range(j, n):
            res, hid, full, _slot = slots[i]
            if res & used:
                continue
            nused, nhm, nf, nh = used | res, hm | hid, f + full, h + 1 - full
            fh[nhm] = fh.get(nhm, 0) | (1 << (nf * 16 + nh))
            state = (i + 1, nused & future[i + 1], nhm, nf, nh)
            if state not in seen:
                seen.add(state)
                stack.append((i + 1, nused, nhm, nf, nh))
    return fh


def _find_packing(k: int, has_4g: bool, hm: int, f: int, h: int) -> tuple[_Slot, ...]:
    """A packing of shape ``k`` hiding exactly ``hm`` with ``f`` full and ``h`` half slots."""
    _surface, slots = _shape_slots(k, has_4g)
    usable = [s for s in slots if not s[1] & ~hm]

    def search(rest: int, used: int, f: int, h: int) -> tuple[_Slot, ...] | None:
        if not rest:
            return () if f == 0 and h == 0 else None
        low = rest & -rest
        for res, hid, full, slot in usable:
            if not hid & low or hid & ~rest or res & used or (f if full else h) == 0:
                continue
            tail = search(rest & ~hid, used | res, f - full, h - 1 + full)
            if tail is not None:
                return (slot, *tail)
        return None

    found = search(hm, 0, f, h)
    if found is None:
        raise ValueError(f"no packing for shape {k} mask {hm} ({f}, {h})")
    return found


@cache
def _outcome_table(has_4g: bool, nmax: int) -> dict[tuple[int, int], _TableGroup]:
    """{(f, h): ([covered and remaining active counts, packed], [arrangement << 16 | hidden mask],
    [plan skeletons, filled in when first needed])}: one row per distinct (outcome, f, h)."""
    patterns = [_shape_patterns(k, has_4g, nmax) for k in range(len(_PLACEMENTS))]
    best: dict[int, int] = {}  # key -> bitset of (f, h) already recorded
    table: dict[tuple[int, int], _TableGroup] = {}
    for a, (_pad, _bs, _ts, k) in enumerate(_ARRANGEMENTS):
        fh = patterns[k]
        _order, syms = _arrangement_surface(a)
        codes = [_code(s) for s in syms]
        base = sum(codes)
        lo = [0] * 64
        for m in range(1, 64):
            low = m & -m
            b = low.bit_length() - 1
            lo[m] = lo[m ^ low] + (codes[b] if b < len(codes) else 0)
        hi = [0] * 64
        for m in range(1, 64):
            low = m & -m
            b = low.bit_length() - 1 + 6
            hi[m] = hi[m ^ low] + (codes[b] if b < len(codes) else 0)
        cov = _PLACEMENTS[k][3] << _COV_SHIFT
        for hm, bits in fh.items():
            key = cov + base - lo[hm & 63] - hi[hm >> 6]
            old = best.get(key, 0)
            new = bits & ~old
            if not new:
                continue
            best[key] = old | bits
            while new:
                low = new & -new
                new ^= low
                b = low.bit_length() - 1
                group = table.setdefault((b >> 4, b & 15), ([], [], []))
                group[0].append(key)
                group[1].append((a << 16) | hm)
    for group in table.values():
        group[2].extend([None] * len(group[0]))
    return table


def _assignments(owned: list[str]) -> dict[tuple[int, int], list[tuple[int, tuple[int, ...]]]]:
    """DP over the Improvements: {(f, h): [(shown counts, roles)]}, deduplicated by counts.

    Role per Improvement: -1 face down, 2 both halves shown, 0/1 only cells[0]/cells[1] shown.
    """
    states: dict[tuple[int, int, int], tuple[int, ...]] = {(0, 0, 0): ()}
    for imp_id in owned:
        c0, c1 = (_code(s) for s in _IMPROVEMENTS[imp_id])
        nxt: dict[tuple[int, int, int], tuple[int, ...]] = {}
        for (f, h, shown), roles in states.items():
            for key, role in (
                ((f, h, shown), -1),
                ((f + 1, h, shown + c0 + c1), 2),
                ((f, h + 1, shown + c0), 0),
                ((f, h + 1, shown + c1), 1),
            ):
                if key not in nxt:
                    nxt[key] = (*roles, role)
        states = nxt
    out: dict[tuple[int, int], list[tuple[int, tuple[int, ...]]]] = {}
    for (f, h, shown), roles in states.items():
        out.setdefault((f, h), []).append((shown, roles))
    return out


_HEADS: tuple[tuple[str, int, int, int, int, int], ...] = tuple(
    (pad, bside, tside, *_PLACEMENTS[k][:3]) for pad, bside, tside, k in _ARRANGEMENTS
)


def _skeleton(has_4g: bool, a: int, hm: int, f: int, h: int) -> _Skeleton:
    """The Pads of arrangement ``a`` and the (x, y, rot) of each slot of a packing.

    Full slots give one spot; half slots give (spot showing cells[0], spot showing cells[1]).
    """
    pack = _find_packing(_ARRANGEMENTS[a][3], has_4g, hm, f, h)
    full = tuple(_placement_for(p, q) for kind, p, q in pack if kind != "half")
    half = tuple((_placement_for(p, q), _placement_for(q, p)) for kind, p, q in pack if kind == "half")
    return _HEADS[a], full, half


def _build_plan(skel: _Skeleton, full_ids: tuple[str, ...], half_ids: tuple[tuple[str, int], ...]) -> Plan:
    (pad, bside, tside, rot, x, y), full, half = skel
    imps: list[dict[str, Any]] = [
        {"id": imp_id, "x": spot[shown][0], "y": spot[shown][1], "rot": spot[shown][2], "layer": "under"}
        for (imp_id, shown), spot in zip(half_ids, half, strict=True)
    ]
    imps.extend(
        {"id": imp_id, "x": sx, "y": sy, "rot": sr, "layer": "over"}
        for imp_id, (sx, sy, sr) in zip(full_ids, full, strict=True)
    )
    return {
        "bottom": {"pad": pad, "side": bside},
        "top": {"side": tside, "rot": rot, "x": x, "y": y},
        "improvements": imps,
    }


class _Join:
    """The outcomes of one (owned, has_4g): packed outcome key -> packed witness."""

    def __init__(self, owned: Any, has_4g: Any) -> None:
        ids = sorted(set(_owned_list(owned)))
        for imp_id in ids:
            improvement_cells(imp_id)
        self.ids = ids
        self.has_4g = has_4g = bool(has_4g)
        self.n = n = len(ids)
        self.table = table = _outcome_table(has_4g, n)
        self.assign = _assignments(ids)
        self.groups = sorted(table)

    def found(self) -> dict[int, int]:
        """{packed outcome: packed witness (group, assignment, table row)} for every outcome."""
        table, assign, groups, n = self.table, self.assign, self.groups, self.n
        found: dict[int, int] = {}
        # later updates win, so walk everything backwards: the first (f, h) group,
        # the first assignment and the first arrangement in stable order provide the plan
        for gi in range(len(groups) - 1, -1, -1):
            f, h = groups[gi]
            options = assign.get((f, h))
            if not options:
                continue
            keys = table[(f, h)][0]
            nfd = (n - f - h) << _NFD_SHIFT
            for oi in range(len(options) - 1, -1, -1):
                offset = options[oi][0] + nfd
                base = ((gi << 12) | oi) << 24
                found.update(zip(map(offset.__add__, keys), range(base, base + len(keys)), strict=True))
        return found

    def _split(self, gi: int, oi: int) -> tuple[tuple[str, ...], tuple[tuple[str, int], ...]]:
        """(ids showing both halves, (id, half shown) of the others placed) of one assignment."""
        roles = self.assign[self.groups[gi]][oi][1]
        return (
            tuple(i for i, r in zip(self.ids, roles, strict=True) if r == 2),
            tuple((i, r) for i, r in zip(self.ids, roles, strict=True) if r in (0, 1)),
        )

    def _skeleton(self, gi: int, ki: int) -> _Skeleton:
        f, h = self.groups[gi]
        group = self.table[(f, h)]
        skel = group[2][ki]
        if skel is None:
            where = group[1][ki]
            skel = group[2][ki] = _skeleton(self.has_4g, where >> 16, where & 0xFFFF, f, h)
        return skel

    def plan(self, ref: int) -> Plan:
        gi, oi, ki = ref >> 36, (ref >> 24) & 4095, ref & ((1 << 24) - 1)
        if not (0 <= gi < len(self.groups)):
            raise IllegalAction(f"There is no outcome {ref!r} for these Improvements.")
        f, h = self.groups[gi]
        if not (0 <= oi < len(self.assign.get((f, h), [])) and 0 <= ki < len(self.table[(f, h)][1])):
            raise IllegalAction(f"There is no outcome {ref!r} for these Improvements.")
        return _build_plan(self._skeleton(gi, ki), *self._split(gi, oi))

    def outcomes(self, with_plans: bool) -> list[dict[str, Any]]:
        out = []
        actives: dict[int, dict[str, int]] = {}
        splits: dict[int, tuple[tuple[str, ...], tuple[tuple[str, int], ...]]] = {}
        found = self.found()
        low24 = (1 << 24) - 1
        for key in sorted(found):
            counts = key & _COUNT_MASK
            active = actives.get(counts)
            if active is None:
                active = actives[counts] = _decode(counts)
            ref = found[key]
            item: dict[str, Any] = {
                "active": active.copy(),
                "covered": key >> _COV_SHIFT,
                "face_down": (key >> _NFD_SHIFT) & 63,
            }
            if not with_plans:
                item["ref"] = ref
                out.append(item)
                continue
            split = splits.get(ref >> 24)
            if split is None:
                split = splits[ref >> 24] = self._split(ref >> 36, (ref >> 24) & 4095)
            skel = self._skeleton(ref >> 36, ref & low24)
            (pad, bside, tside, rot, x, y), full, half = skel
            imps: list[dict[str, Any]] = []
            for (imp_id, shown), spot in zip(split[1], half, strict=True):
                sx, sy, sr = spot[shown]
                imps.append({"id": imp_id, "x": sx, "y": sy, "rot": sr, "layer": "under"})
            for imp_id, (sx, sy, sr) in zip(split[0], full, strict=True):
                imps.append({"id": imp_id, "x": sx, "y": sy, "rot": sr, "layer": "over"})
            item["plan"] = {
                "bottom": {"pad": pad, "side": bside},
                "top": {"side": tside, "rot": rot, "x": x, "y": y},
                "improvements": imps,
            }
            out.append(item)
        return out


def distinct_outcomes(owned: list[str], has_4g: bool, *, with_plans: bool = True) -> list[dict[str, Any]]:
    """Every distinct outcome a seat can reach, with a plan achieving each.

    Each item is ``{"active": {symbol: count}, "covered": n, "face_down": n,
    "plan": plan}``; outcomes are distinct by (active counts, covered, number
    face down) and sorted by covered, then number face down, then the counts
    in ``SYMBOLS`` order. Duplicate ids in ``owned`` count once. The
    placements considered are listed in the module docstring.

    Building tens of thousands of plan dicts dominates the time with many
    Improvements; ``with_plans=False`` replaces ``"plan"`` with an int
    ``"ref"`` that :func:`outcome_plan` turns into the plan later (for the
    same ``owned`` and ``has_4g``).

    Dynamic programming: the hidden-cell patterns of each of the 60 top-Pad
    placements and the (arrangement, pattern) table deduplicated by effect
    are computed once per (has_4g, number of Improvements) and cached; each
    call runs a DP over the owned Improvements (deduplicated by the halves
    they show) and joins the two on (Improvements showing both halves,
    Improvements showing one half).
    """
    join = _Join(owned, has_4g)
    # Tens of thousands of small dicts: the cyclic garbage collector would rescan the
    # large cached tables many times while they are built, doubling the time.
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        return join.outcomes(bool(with_plans))
    finally:
        if paused:
            gc.enable()


def outcome_plan(owned: list[str], has_4g: bool, ref: int) -> Plan:
    """The plan of the outcome ``ref`` from ``distinct_outcomes(owned, has_4g, with_plans=False)``."""
    if isinstance(ref, bool) or not isinstance(ref, int) or ref < 0:
        raise IllegalAction(f"There is no outcome {ref!r} for these Improvements.")
    return _Join(owned, has_4g).plan(ref)


# ------------------------------------------------------------------------ samples


@cache
def _placements_on(a: int, has_4g: bool) -> tuple[tuple[int, int, int, str], ...]:
    """Every (x, y, rot, layer) at which an Improvement may lie in arrangement ``a``."""
    pad, _bs, _ts, k = _ARRANGEMENTS[a]
    rot, tx, ty, _cov = _PLACEMENTS[k]
    on_pads = frozenset(top_pad_positions(rot, tx, ty)) | _BOTTOM_SET
    xs = [p[0] for p in on_pads]
    ys = [p[1] for p in on_pads]
    out = []
    for y in range(min(ys) - 2, max(ys) + 2):
        for x in range(min(xs) - 2, max(xs) + 2):
            for r in range(4):
                cells = improvement_positions(x, y, r)
                inside = sum(1 for p in cells if p in on_pads)
                if all(p in _BOTTOM_SET for p in cells):
                    out.append((x, y, r, "under"))
                if inside == 2 or (has_4g and inside == 1):
                    out.append((x, y, r, "over"))
    return tuple(out)


def sample_plans(owned: list[str], has_4g: bool, limit: int, salt: int = 0) -> list[Plan]:
    """A deterministic sample of up to ``limit`` distinct legal plans using Improvements.

    Same arguments, same plans: chance comes from :mod:`engine.rng` seeded
    with ``salt`` and the owned ids (never the global ``random``). Placements
    may overlap (never fully covering one another), lie under the top Pad, or
    (with 4G) off the Pads. Every plan is canonical (``validate_plan`` output).
    """
    ids = sorted(set(_owned_list(owned)))
    for imp_id in ids:
        improvement_cells(imp_id)
    if isinstance(limit, bool) or not isinstance(limit, int):
        raise TypeError("limit must be an int")
    if isinstance(salt, bool) or not isinstance(salt, int):
        raise TypeError("salt must be an int")
    has_4g = bool(has_4g)
    limit = max(0, min(limit, 10_000))
    seed = zlib.crc32(("|".join(ids) + f"|{int(has_4g)}").encode()) ^ (salt & ((1 << 64) - 1))
    rnd = _rng.Rng(_rng.seed_state(seed))
    out: list[Plan] = []
    seen: set[str] = set()
    for _attempt in range(limit * 20 + 20):
        if len(out) >= limit:
            break
        a = rnd.below(len(_ARRANGEMENTS))
        plan = _arrangement_plan(a)
        spots = _placements_on(a, has_4g)
        chosen = rnd.shuffle(ids)[: rnd.below(len(ids)) + 1] if ids else []
        items = []
        for imp_id in chosen:
            x, y, r, layer = spots[rnd.below(len(spots))]
            items.append({"id": imp_id, "x": x, "y": y, "rot": r, "layer": layer})
        plan["improvements"] = items
        try:
            canon = validate_plan(plan, ids, has_4g)
        except IllegalAction:
            continue
        text = format_plan(canon)
        if text not in seen:
            seen.add(text)
            out.append(canon)
    return out
