"""The distinct decisions of Phase 1: every outcome a company can reach with its Pads
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
about 25,000 outcomes (65,000 with 4G).

Speed: what the Pads alone can show (per number of Improvements, with and
without 4G) is computed at build time and shipped in ``data/outcome_tables.bin``
(:mod:`engine.smartphone_inc.outcome_tables`). A call joins it with what the owned
Improvements show as big-int bitsets (one shift per group and assignment instead of
one sum per outcome). The result is a lazy sequence (:class:`Outcomes`): its length
and order come from bit counts, and an outcome's dict and plan are built only when it
is read, so a caller pays for what a player looks at (building all 65,000 plan dicts
takes about half a second). ``with_plans=False`` gives each outcome an int ``"ref"``
(its packed key) instead of a plan, and :func:`outcome_plan` builds the one plan a
player picks; :func:`distinct_effects` lists only the outcomes that differ in what
they give (about a tenth); :func:`goods_effects` is that list with the
face-down pieces that make Goods (Update 1.1: a Mini-upgrade makes none), the
one the planner and the greedy player value.

Rules version 2 (``literal_cover=True``, ``planning.literal_cover``): a bottom cell
under the top Pad and under an "under" Improvement makes no covered-cell Goods, as
``pads.evaluate`` counts it. Only a half slot (below) lies on such a cell, so the same
tables serve: an outcome of h half slots has h fewer covered cells (0 is possible).
``tests/test_plan_enumeration.py`` checks all of it against digests of what the slow
reference implementation it replaced enumerated.

:func:`sample_plans` draws legal plans from every kind of placement,
overlapping ones included, from a PRNG seeded with its ``salt``.
"""

from __future__ import annotations

import gc
import zlib
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import cache, lru_cache
from itertools import accumulate, product, repeat
from math import prod
from operator import add, and_, mul, rshift, sub
from typing import Any, overload

from engine import rng as _rng
from engine.errors import IllegalAction
from engine.smartphone_inc import outcome_tables
from engine.smartphone_inc.data import MINI_UPGRADES
from engine.smartphone_inc.pads import (
    _ARRANGEMENTS,
    _BITS,
    _BOTTOM_SET,
    _COV_SHIFT,
    _DIGIT,
    _IMPROVEMENTS,
    _NFD_SHIFT,
    _PLACEMENTS,
    SYMBOLS,
    Plan,
    Pos,
    _arrangement_plan,
    _arrangement_surface,
    _code,
    _neighbours,
    _owned_list,
    _placement_for,
    format_plan,
    improvement_cells,
    improvement_positions,
    top_pad_positions,
    validate_plan,
)

__all__ = ["distinct_outcomes", "distinct_effects", "outcome_plan", "sample_plans"]


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
    [plan skeletons, filled in when first needed])}: one row per distinct (outcome, f, h).

    Read from the shipped data (:mod:`engine.smartphone_inc.outcome_tables`), else computed."""
    shipped = outcome_tables.load(has_4g, nmax)
    if shipped is None:
        return _computed_outcome_table(has_4g, nmax)
    return {fh: (keys, where, [None] * len(keys)) for fh, (keys, where) in sorted(shipped.items())}


@cache
def _computed_outcome_table(has_4g: bool, nmax: int) -> dict[tuple[int, int], _TableGroup]:
    """:func:`_outcome_table` computed from the Pads (seconds with 4G and many Improvements)."""
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


@lru_cache(maxsize=64)  # the same few sets of Improvements are asked again and again; read only
def _assignments(owned: tuple[str, ...]) -> dict[tuple[int, int], list[tuple[int, tuple[int, ...]]]]:
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


# --------------------------------------------------------------- bitset layout
#
# The distinct outcomes of one call are the union, over the groups (f, h), of
# {table key + shown counts + face down}: hundreds of thousands of sums for about
# 65,000 distinct outcomes with 4G and 6 Improvements. They are computed as big-int
# bitsets instead: an outcome (covered, face down, counts) is bit
#   covered * W_cov + face_down * W_fd + sum(count[s] * W[s])
# with, per symbol, a radix larger than any count (the digits never carry), so
# adding shown counts to every table key of a group is one shift of the group's
# bitset, and the bits read in ascending order are the outcomes in sorted order.

_PROD = SYMBOLS.index("prod")
if len(SYMBOLS) != 6 or _BITS != 6:
    raise RuntimeError("_Counts unrolls 6 counts of 6 bits")


def _bit_positions(bits: int) -> list[int]:
    """The positions of the set bits of ``bits``, ascending."""
    if not bits:
        return []
    runs = bin(bits)[:1:-1].split("1")  # lowest bit first; the runs of zeros between ones
    runs.pop()
    return list(accumulate(map((1).__add__, map(len, runs)), initial=-1))[1:]


def _digits(packed: int) -> tuple[int, ...]:
    """The 6 counts of packed counts, in SYMBOLS order."""
    return tuple((packed >> (_BITS * (len(SYMBOLS) - 1 - i))) & _DIGIT for i in range(len(SYMBOLS)))


class _Counts(dict[int, tuple[dict[str, int], int]]):
    """position in a block -> ({symbol: count}, packed counts), filled when first read."""

    def __init__(self, weights: tuple[int, ...], radii: tuple[int, ...]) -> None:
        super().__init__()
        self.weights, self.radii = weights, radii
        self.halves: tuple[list[tuple[dict[str, int], int]], list[tuple[dict[str, int], int]]] | None = None
        self.split = 1

    def fill(self) -> None:
        """Every position at once (faster than one by one when most are read)."""
        if len(self) == prod(self.radii):
            return
        packs = [0]
        for i, r in enumerate(self.radii):
            shift = _BITS * (len(SYMBOLS) - 1 - i)
            packs = [p + (d << shift) for p in packs for d in range(r)]
        actives = map(dict, map(zip, repeat(SYMBOLS), product(*map(range, self.radii))))
        self.update(enumerate(zip(actives, packs, strict=True)))

    def __missing__(self, lo: int) -> tuple[dict[str, int], int]:
        # a position is (first 3 counts) * split + (last 3 counts): two small tables
        if self.halves is None:
            self.halves = (self._half(self.radii[:3], 0), self._half(self.radii[3:], 3))
            self.split = prod(self.radii[3:])
        hi, low = divmod(lo, self.split)
        (a_hi, p_hi), (a_lo, p_lo) = self.halves[0][hi], self.halves[1][low]
        found = self[lo] = ({**a_hi, **a_lo}, p_hi | p_lo)
        return found

    def packed_of(self) -> Any:
        """position -> packed counts, without the ``{symbol: count}`` dicts (a function)."""
        if self.halves is None:
            self.halves = (self._half(self.radii[:3], 0), self._half(self.radii[3:], 3))
            self.split = prod(self.radii[3:])
        his = [pk for _a, pk in self.halves[0]]
        los = [pk for _a, pk in self.halves[1]]
        split = self.split

        def packed(lo: int) -> int:
            hi, low = divmod(lo, split)
            return his[hi] | los[low]

        return packed

    @staticmethod
    def _half(radii: tuple[int, ...], first: int) -> list[tuple[dict[str, int], int]]:
        """({symbol: count}, packed) of every combination of 3 counts from symbol ``first`` on."""
        names = SYMBOLS[first : first + 3]
        shifts = [_BITS * (len(SYMBOLS) - 1 - i) for i in range(first, first + 3)]
        return [
            (dict(zip(names, ds, strict=True)), sum(d << sh for d, sh in zip(ds, shifts, strict=True)))
            for ds in product(*map(range, radii))
        ]


class _Layout:
    """Bit positions of the counts, for counts below ``radii`` (SYMBOLS order).

    A *block* holds every combination of counts; the bitsets of a group and of a
    number face down hold one block per number of covered cells (1 to 4).
    """

    def __init__(self, radii: tuple[int, ...]) -> None:
        self.radii = radii
        weights = [1] * len(radii)
        for i in range(len(radii) - 2, -1, -1):
            weights[i] = weights[i + 1] * radii[i + 1]
        self.weights = tuple(weights)
        self.block = weights[0] * radii[0]
        self.counts = _Counts(self.weights, radii)
        self.shifts: dict[int, int] = {}

    def shift(self, packed: int) -> int:
        """The bit offset of packed counts (no covered cells, none face down)."""
        found = self.shifts.get(packed)
        if found is None:
            found = self.shifts[packed] = sum(map(mul, _digits(packed), self.weights))
        return found


class _Geometry:
    """The shipped table of (has_4g, n) prepared for bitsets: key halves per group."""

    def __init__(self, has_4g: bool, n: int) -> None:
        self.table = _outcome_table(has_4g, n)
        self.groups = sorted(self.table)
        self.his = [list(map(rshift, self.table[fh][0], repeat(18))) for fh in self.groups]
        self.los = [list(map(and_, self.table[fh][0], repeat((1 << 18) - 1))) for fh in self.groups]
        top = [0] * len(SYMBOLS)
        for half, first in ((self.his, 0), (self.los, 3)):
            for value in set().union(*half):
                for i in range(3):
                    top[first + i] = max(top[first + i], (value >> (_BITS * (2 - i))) & _DIGIT)
        self.max_counts = tuple(top)  # the largest count of each symbol the Pads alone show
        self.index: dict[int, dict[int, int]] = {}

    def row(self, gi: int, key: int) -> int | None:
        """The row of group ``gi`` with ``key`` (keys are distinct in a group), or None."""
        index = self.index.get(gi)
        if index is None:
            keys = self.table[self.groups[gi]][0]
            index = self.index[gi] = dict(zip(keys, range(len(keys)), strict=True))
        return index.get(key)


@cache
def _geometry(has_4g: bool, n: int) -> _Geometry:
    return _Geometry(has_4g, n)


@lru_cache(maxsize=8)  # a few MB each once their counts are filled in
def _bitsets(has_4g: bool, n: int, radii: tuple[int, ...]) -> tuple[_Layout, tuple[int, ...]]:
    """The layout and, per group, the bitset of its table keys."""
    geo = _geometry(has_4g, n)
    layout = _Layout(radii)
    w = layout.weights
    hi_off = {
        v: ((v >> 24) - 1) * layout.block + ((v >> 12) & 63) * w[0] + ((v >> 6) & 63) * w[1] + (v & 63) * w[2]
        for v in set().union(*geo.his)
    }
    lo_off = {v: ((v >> 12) & 63) * w[3] + ((v >> 6) & 63) * w[4] + (v & 63) * w[5] for v in set().union(*geo.los)}
    out = []
    for gi in range(len(geo.groups)):
        positions = list(map(add, map(hi_off.__getitem__, geo.his[gi]), map(lo_off.__getitem__, geo.los[gi])))
        if not positions:
            out.append(0)
            continue
        flags = bytearray((max(positions) >> 3) + 1)
        for p in positions:
            flags[p >> 3] |= 1 << (p & 7)
        out.append(int.from_bytes(flags, "little"))
    return layout, tuple(out)


class _Join:
    """The outcomes of one (owned, has_4g, rules reading).

    ``literal`` (rules version 2 on, ``pads.evaluate``'s ``literal_cover``): a bottom
    cell under the top Pad that lies under an "under" Improvement makes no covered-cell
    Goods. Of the slots only a half slot puts an Improvement on such a cell (one cell
    each, never shared), so an outcome of group (f, h) is the same table key with ``h``
    fewer covered cells: the same tables serve both readings, and ``covered`` may be 0.
    """

    def __init__(self, owned: Any, has_4g: Any, literal: Any = False) -> None:
        ids = sorted(set(_owned_list(owned)))
        for imp_id in ids:
            improvement_cells(imp_id)
        self.ids = ids
        self.has_4g = has_4g = bool(has_4g)
        self.literal = bool(literal)
        self.n = n = len(ids)
        self.geo = _geometry(has_4g, n)
        self.table = self.geo.table
        self.assign = _assignments(tuple(ids))
        self.groups = self.geo.groups
        # covered cells taken off the table keys of each group (literal: its half slots)
        self.uncover = [h if self.literal else 0 for _f, h in self.groups]
        self.low = 0 if self.literal else 1  # the fewest covered cells an outcome can have
        self.splits: dict[int, tuple[tuple[str, ...], tuple[tuple[str, int], ...]]] = {}

    # -- the set of outcomes ---------------------------------------------------------

    def radii(self, wide: bool = False) -> tuple[int, ...]:
        """Per symbol a radix above any count (what the Pads show plus every half of
        every Improvement); ``wide`` leaves room to add covered cells and face down
        to the Production count (see :meth:`effects`)."""
        radii = [k + 1 for k in self.geo.max_counts]
        for imp_id in self.ids:
            for sym in _IMPROVEMENTS[imp_id]:
                if sym is not None:
                    radii[SYMBOLS.index(sym)] += 1
        if wide:
            radii[_PROD] += 4 + self.n
        return tuple(radii)

    def union(self, wide: bool = False) -> tuple[_Layout, list[int]]:
        """The layout and, per number face down, the bitset of the outcomes: block
        ``covered - self.low`` of a bitset holds the outcomes with that many covered."""
        layout, bitsets = _bitsets(self.has_4g, self.n, self.radii(wide))
        shift = layout.shift
        found = [0] * (self.n + 1)
        for gi, (f, h) in enumerate(self.groups):
            options = self.assign.get((f, h))
            bits = bitsets[gi]
            if not options or not bits:
                continue
            nfd = self.n - f - h
            # the group's bitset has block (covered - 1); move it to block (covered - uncover - low)
            move = (1 - self.uncover[gi] - self.low) * layout.block
            if move > 0:
                bits <<= move
            elif move < 0:
                bits >>= -move  # only empty blocks fall off: a group never uncovers more than it covers
            acc = found[nfd]
            for offset in {shift(packed) for packed, _roles in options}:
                acc |= bits << offset
            found[nfd] = acc
        return layout, found

    def _blocks(self, layout: _Layout, found: list[int]) -> Iterator[tuple[int, int, int]]:
        """(covered, face down, bitset of the counts) of every outcome, in sorted order."""
        mask = (1 << layout.block) - 1
        for cov in range(self.low, 5):
            for nfd, bits in enumerate(found):
                block = (bits >> ((cov - self.low) * layout.block)) & mask
                if block:
                    yield cov, nfd, block

    def keys(self) -> list[int]:
        """Every outcome as a packed key (see ``pads._decode``), sorted."""
        layout, found = self.union()
        counts = layout.counts
        counts.fill()
        out: list[int] = []
        for cov, nfd, block in self._blocks(layout, found):
            head = cov << _COV_SHIFT | nfd << _NFD_SHIFT
            out.extend(head + pk for _a, pk in map(counts.__getitem__, _bit_positions(block)))
        return out

    def _new_effects(self) -> Iterator[tuple[Any, int, int, int, int]]:
        """(wide layout, covered, face down, up, bits) of each block's effects not met
        before, in sorted order: in the wide layout, moving a block up by (covered + face
        down) Production gives its effects."""
        layout, found = self.union(wide=True)
        w_prod = layout.weights[_PROD]
        taken = 0
        for cov, nfd, block in self._blocks(layout, found):
            up = (cov + nfd) * w_prod
            new = (block << up) & ~taken
            if new:
                taken |= new
                yield layout, cov, nfd, up, new

    def effects(self) -> list[dict[str, Any]]:
        """The first outcome (in sorted order) of each distinct effect: (down, up,
        prod + covered + face down, improve, research, logistics)."""
        out: list[dict[str, Any]] = []
        for layout, cov, nfd, up, new in self._new_effects():
            head = cov << _COV_SHIFT | nfd << _NFD_SHIFT
            out.extend(
                {"active": a.copy(), "covered": cov, "face_down": nfd, "ref": head + pk}
                for a, pk in map(layout.counts.__getitem__, map(sub, _bit_positions(new), repeat(up)))
            )
        return out

    def effect_refs(self) -> list[int]:
        """The refs (packed keys) of :meth:`effects`, in the same order, without the dicts."""
        out: list[int] = []
        packed = None
        for layout, cov, nfd, up, new in self._new_effects():
            packed = packed or layout.counts.packed_of()  # one layout for every block
            head = cov << _COV_SHIFT | nfd << _NFD_SHIFT
            out.extend(map(head.__add__, map(packed, map(sub, _bit_positions(new), repeat(up)))))
        return out

    # -- the plan of one outcome ----------------------------------------------------

    def witness(self, key: int) -> tuple[int, int, int] | None:
        """(group, assignment, row) of the plan of outcome ``key``: the first in that order."""
        for gi, (f, h) in enumerate(self.groups):
            options = self.assign.get((f, h))
            if not options:
                continue
            rest = key - ((self.n - f - h) << _NFD_SHIFT) + (self.uncover[gi] << _COV_SHIFT)
            for oi, (shown, _roles) in enumerate(options):
                # a count of ``shown`` above the key's borrows: that digit becomes 60-63,
                # which no table key has (the Pads show at most a few of a symbol)
                ki = self.geo.row(gi, rest - shown)
                if ki is not None:
                    return gi, oi, ki
        return None

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
            nfd = ((n - f - h) << _NFD_SHIFT) - (self.uncover[gi] << _COV_SHIFT)
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

    def plan(self, key: int) -> Plan:
        found = self.witness(key)
        if found is None:
            raise IllegalAction(f"There is no outcome {key!r} for these Improvements.")
        gi, oi, ki = found
        return _build_plan(self._skeleton(gi, ki), *self._split(gi, oi))

    def plan_of_witness(self, ref: int) -> Plan:
        """The plan of a packed witness of :meth:`found` (the splits are kept: many
        outcomes share an assignment)."""
        split = self.splits.get(ref >> 24)
        if split is None:
            split = self.splits[ref >> 24] = self._split(ref >> 36, (ref >> 24) & 4095)
        return _build_plan(self._skeleton(ref >> 36, ref & 0xFFFFFF), *split)


class Outcomes(Sequence[dict[str, Any]]):
    """The distinct outcomes of one call of :func:`distinct_outcomes`, in sorted order,
    each built when it is read: ``{"active", "covered", "face_down"}`` and either
    ``"plan"`` or ``"ref"``. Its length and the order are known at once (bit counts of
    the outcome bitsets); reading one outcome decodes it and, with plans, builds its one
    plan; iterating over all of them builds every plan in bulk. Every read returns a new
    dict (changing it changes nothing here). Equal to any sequence of the same items."""

    def __init__(self, join: _Join, with_plans: bool) -> None:
        self._join, self._with_plans = join, with_plans
        layout, found = join.union()
        self._counts = layout.counts
        self._blocks = list(join._blocks(layout, found))
        self._starts = list(accumulate((block.bit_count() for _c, _n, block in self._blocks), initial=0))
        self._positions: dict[int, list[int]] = {}
        self._witnesses: dict[int, int] | None = None

    def __len__(self) -> int:
        return self._starts[-1]

    def _read(self, bi: int, j: int) -> dict[str, Any]:
        """Outcome ``j`` of block ``bi``."""
        positions = self._positions.get(bi)
        cov, nfd, block = self._blocks[bi]
        if positions is None:
            positions = self._positions[bi] = _bit_positions(block)
        active, packed = self._counts[positions[j]]
        return self._item(cov, nfd, active, packed)

    def _item(self, cov: int, nfd: int, active: dict[str, int], packed: int) -> dict[str, Any]:
        key = (cov << _COV_SHIFT | nfd << _NFD_SHIFT) + packed
        item: dict[str, Any] = {"active": active.copy(), "covered": cov, "face_down": nfd}
        if not self._with_plans:
            item["ref"] = key
        elif self._witnesses is not None:
            item["plan"] = self._join.plan_of_witness(self._witnesses[key])
        else:
            item["plan"] = self._join.plan(key)
        return item

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...

    def __getitem__(self, index: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        size = len(self)
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError("outcome index out of range")
        bi = bisect_right(self._starts, index) - 1
        return self._read(bi, index - self._starts[bi])

    def __iter__(self) -> Iterator[dict[str, Any]]:
        if self._with_plans and self._witnesses is None:
            self._witnesses = self._join.found()  # every plan: one bulk lookup
        self._counts.fill()
        counts, item = self._counts, self._item
        with _gc_paused():
            if self._with_plans:
                items = self._every_plan()
            else:
                items = [
                    item(cov, nfd, *counts[p])
                    for bi, (cov, nfd, block) in enumerate(self._blocks)
                    for p in self._positions.get(bi) or _bit_positions(block)
                ]
        return iter(items)

    def _every_plan(self) -> list[dict[str, Any]]:
        """Every outcome with its plan, in one loop."""
        join, counts, witnesses = self._join, self._counts, self._witnesses
        assert witnesses is not None
        splits = join.splits
        skeletons: dict[int, _Skeleton] = {}
        out: list[dict[str, Any]] = []
        append = out.append
        for bi, (cov, nfd, block) in enumerate(self._blocks):
            head = cov << _COV_SHIFT | nfd << _NFD_SHIFT
            for p in self._positions.get(bi) or _bit_positions(block):
                active, packed = counts[p]
                ref = witnesses[head + packed]
                split = splits.get(ref >> 24)
                if split is None:
                    split = splits[ref >> 24] = join._split(ref >> 36, (ref >> 24) & 4095)
                row = ref & 0xFFFFFF | (ref >> 36) << 24
                skel = skeletons.get(row)
                if skel is None:
                    skel = skeletons[row] = join._skeleton(ref >> 36, ref & 0xFFFFFF)
                append({"active": active.copy(), "covered": cov, "face_down": nfd, "plan": _build_plan(skel, *split)})
        return out

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str | bytes):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<{len(self)} distinct outcomes{' with plans' if self._with_plans else ''}>"


def distinct_outcomes(
    owned: list[str], has_4g: bool, *, with_plans: bool = True, literal_cover: bool = False
) -> Outcomes:
    """Every distinct outcome a seat can reach, with a plan achieving each.

    Each item is ``{"active": {symbol: count}, "covered": n, "face_down": n,
    "plan": plan}``; outcomes are distinct by (active counts, covered, number
    face down) and sorted by covered, then number face down, then the counts
    in ``SYMBOLS`` order. Duplicate ids in ``owned`` count once. The
    placements considered are listed in the module docstring.

    ``literal_cover`` is the rules reading of the game (``planning.literal_cover``:
    rules version 2 on): bottom cells under an "under" Improvement then make no
    covered-cell Goods, as ``pads.evaluate`` counts them, and ``covered`` may be 0.

    The result is an :class:`Outcomes` sequence: its length is known at once and
    each outcome (with its plan) is built when it is read, so a caller pays only for
    what it looks at. ``with_plans=False`` gives each outcome an int ``"ref"``
    instead of ``"plan"``, which :func:`outcome_plan` turns into the plan later (for
    the same ``owned``, ``has_4g`` and ``literal_cover``).

    Dynamic programming: the hidden-cell patterns of each of the 60 top-Pad
    placements and the (arrangement, pattern) table deduplicated by effect,
    per (has_4g, number of Improvements), are computed at build time
    (``data/outcome_tables.bin``); each call runs a DP over the owned
    Improvements (deduplicated by the halves they show) and joins the two on
    (Improvements showing both halves, Improvements showing one half): as
    bitsets for the outcomes themselves, pair by pair (the first pair in a
    stable order gives the plan) only for the plans read.

    The ``"ref"`` of an outcome is its packed (covered, face down, counts) key:
    it does not depend on the order of ``owned``, and a ref that is no outcome
    of these Improvements is refused by :func:`outcome_plan`.
    """
    return Outcomes(_Join(owned, has_4g, literal_cover), with_plans)


@contextmanager
def _gc_paused() -> Iterator[None]:
    """The cyclic garbage collector off while tens of thousands of small dicts and ints
    are built: it would rescan the large cached tables many times, doubling the time."""
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def distinct_effects(owned: list[str], has_4g: bool, *, literal_cover: bool = False) -> list[dict[str, Any]]:
    """The outcomes of ``distinct_outcomes(owned, has_4g, with_plans=False)`` that differ
    in what they give the company, in the same order: of the outcomes with the same
    price change (up - down), up + down, Goods (prod + covered + face down), improve,
    research and logistics, only the first is kept.

    Each item is ``{"active", "covered", "face_down", "ref"}`` as in ``distinct_outcomes``
    (``outcome_plan`` turns the ref into its plan). With 4G and 6 Improvements this is
    about a tenth of the outcomes, found without building the others.
    """
    join = _Join(owned, has_4g, literal_cover)
    with _gc_paused():
        return join.effects()


def effect_refs(owned: list[str], has_4g: bool, *, literal_cover: bool = False) -> list[int] | None:
    """The ``"ref"`` of each item of :func:`goods_effects`, in the same order, built
    without the items (:func:`outcome_of_ref` gives one), or None where an item needs
    more than its ref (a Mini-upgrade owned: the face-down pieces that make Goods).
    The planner's first screen groups these by what they give (``planning.summary_of_ref``)."""
    if any(i in MINI_UPGRADES for i in owned):
        return None
    join = _Join(owned, has_4g, literal_cover)
    with _gc_paused():
        return join.effect_refs()


def outcome_of_ref(ref: int) -> dict[str, Any]:
    """The item of :func:`distinct_effects` with this ref: ``{"active", "covered", "face_down", "ref"}``
    (``"face_down"`` a number)."""
    active = {s: (ref >> (_BITS * (len(SYMBOLS) - 1 - i))) & _DIGIT for i, s in enumerate(SYMBOLS)}
    return {"active": active, "covered": (ref >> _COV_SHIFT) & 63, "face_down": (ref >> _NFD_SHIFT) & 63, "ref": ref}


def goods_effects(
    owned: list[str], has_4g: bool, *, literal_cover: bool = False
) -> Sequence[dict[str, Any]]:
    """The outcomes that differ in what they give, with ``"face_down"`` counting only the
    face-down pieces that make Goods, as the reveal does (``planning.reveal``): Update
    1.1, a Mini-upgrade left face down makes no Goods (``new_technologies.face_down_goods``),
    while the other outcome lists count every piece face down.

    Without a Mini-upgrade this is :func:`distinct_effects` (``"face_down"`` a number).
    With one, two outcomes of the same counts may differ in Goods (which pieces lie face
    down), so it is every distinct outcome, each with the list of its face-down pieces
    that make Goods (those its plan, ``outcome_plan`` of its ref, does not place). The planner and the greedy player value the
    outcomes by these."""
    if not any(i in MINI_UPGRADES for i in owned):
        return distinct_effects(owned, has_4g, literal_cover=literal_cover)
    join = _Join(owned, has_4g, literal_cover)
    witnesses = join.found()  # the plan of each outcome: which pieces it places
    unique = list(dict.fromkeys(owned))
    face_down: dict[int, list[str]] = {}  # per assignment of the Improvements
    out = []
    for item in Outcomes(join, with_plans=False):
        ref = witnesses[item["ref"]]
        fd = face_down.get(ref >> 24)
        if fd is None:
            full, half = join._split(ref >> 36, (ref >> 24) & 4095)
            placed = {*full, *(i for i, _shown in half)}
            fd = face_down[ref >> 24] = [i for i in unique if i not in placed and i not in MINI_UPGRADES]
        item["face_down"] = list(fd)
        out.append(item)
    return out


def face_down_count(outcome: dict[str, Any]) -> int:
    """The face-down pieces of an outcome that count for Goods (a number, or the list of
    :func:`goods_effects`)."""
    fd = outcome["face_down"]
    return fd if isinstance(fd, int) else len(fd)


def outcome_plan(owned: list[str], has_4g: bool, ref: int, *, literal_cover: bool = False) -> Plan:
    """The plan of the outcome ``ref`` from ``distinct_outcomes(owned, has_4g, with_plans=False)``
    (or ``distinct_effects``), with the same ``literal_cover``: the same plan
    ``with_plans=True`` gives that outcome."""
    if isinstance(ref, bool) or not isinstance(ref, int) or ref < 0:
        raise IllegalAction(f"There is no outcome {ref!r} for these Improvements.")
    return _Join(owned, has_4g, literal_cover).plan(ref)


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
