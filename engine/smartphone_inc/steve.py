"""Steve, the artificial intelligence (SI-STEVE-01..12).

Steve plays through the phases like a company, in Priority order, but decides by
the instructions of his section of the rulebook. He has no Pads: his Pad's cells
are all active, and each round the Delayed Improvement goes onto the part of his
Pad numbered with the round. He uses no Technology or Retailer bonuses but scores
his Patents.
"""

from __future__ import annotations

from typing import Any

from engine.smartphone_inc.common import (
    State,
    can_found_office,
    linked_to_office,
    say,
    tech_cost,
    tech_name,
)
from engine.smartphone_inc.data import (
    BOARD_ALPHABETICAL,
    IMPROVEMENTS,
    REGIONS,
    SIZE_RANK,
    STEVE_PAD,
    SYMBOLS,
    TECH_ORDER,
    improvement_name,
)
from engine.smartphone_inc.logistics import found_office
from engine.smartphone_inc.research import complete
from engine.smartphone_inc.selling import free_willing, place


def pad_symbols(state: State) -> list[str | None]:
    """Every visible cell of Steve's Pad (all active, SI-STEVE-01)."""
    cells: list[str | None] = list(STEVE_PAD["cells"])
    slots = state["steve"]["slots"]
    for rnd, printed in STEVE_PAD["round_slots"].items():
        imp = slots.get(rnd)
        cells.extend(IMPROVEMENTS[imp] if imp else printed)
    return cells


def plan_outcome(state: State) -> dict[str, Any]:
    cells = pad_symbols(state)
    return {"active": {k: cells.count(k) for k in SYMBOLS}, "covered": 0, "face_down": []}


def begin_round(state: State) -> None:
    """SI-STEVE-03: 1 Progress marker, and the Delayed Improvement onto this round's part."""
    st = state["steve"]
    seat = st["seat"]
    st["bonus"] = 1
    if st["delayed"] is not None:
        st["slots"][str(state["round"])] = st["delayed"]
        say(state, f"{seat} moves {improvement_name(st['delayed'])} onto round {state['round']} of his Pad.")
        st["delayed"] = None


def improve(state: State, seat: str) -> None:
    """SI-STEVE-06: the top Improvement of the Block goes to the Delayed Improvement space."""
    if state["block"]:
        imp = state["block"].pop(0)
        state["steve"]["delayed"] = imp
        say(state, f"{seat} takes {improvement_name(imp)} (Delayed Improvement).")
    else:
        state["players"][seat]["tokens"] += 1
        say(state, f"{seat} takes a Goods token (the Improvement Block is empty).")


def research_target(state: State, seat: str) -> str | None:
    """SI-STEVE-07: the Technology he is studying; else the cheapest with a Patent left;
    else the cheapest he lacks (ties in board order); else None."""
    p = state["players"][seat]
    lacking = [t for t in TECH_ORDER if t not in p["techs"]]
    studying = [t for t in lacking if p["research"].get(t, 0) > 0]
    if studying:
        return studying[0]
    with_patent = [t for t in lacking if state["techs"][t]["patent"] is None]
    pool = with_patent or lacking
    if not pool:
        return None
    return min(pool, key=lambda t: (tech_cost(state, seat, t), TECH_ORDER.index(t)))


def research(state: State, seat: str, markers: int) -> None:
    p = state["players"][seat]
    placed: dict[str, int] = {}
    for _ in range(markers):
        tech = research_target(state, seat)
        if tech is None:
            break
        p["research"][tech] = p["research"].get(tech, 0) + 1
        placed[tech] = placed.get(tech, 0) + 1
        complete(state, seat)
    if placed:
        say(state, f"{seat} researches " + ", ".join(f"{tech_name(state, t)} +{n}" for t, n in placed.items()) + ".")
    else:
        say(state, f"{seat} skips research.")
    complete(state, seat)


def alphabetical(state: State) -> list[str]:
    """The regions in Steve's alphabetical order (the 2-3 player board: by name, DATA.md)."""
    return BOARD_ALPHABETICAL[state["options"].get("board", "big")]


def available(state: State, seat: str) -> list[str]:
    return [r for r in state["regions"] if linked_to_office(state, seat, r) and can_found_office(state, seat, r) is None]


def marker_target(state: State, seat: str) -> str | None:
    """SI-STEVE-09: largest available region; then fewest other Offices; then alphabetical."""
    regions = available(state, seat)
    if not regions:
        return None
    return min(
        regions,
        key=lambda r: (
            -SIZE_RANK[REGIONS[r]["size"]],
            sum(1 for o in state["regions"][r]["offices"] if o != seat),
            alphabetical(state).index(r),
        ),
    )


def logistics(state: State, seat: str, markers: int) -> None:
    """SI-STEVE-08: markers go to the region with Steve's marker, Office when possible."""
    st = state["steve"]
    p = state["players"][seat]
    left = markers
    while left > 0:
        if st["marker"] is None or st["marker"] not in available(state, seat):
            st["marker"] = marker_target(state, seat)
            if st["marker"] is None:
                say(state, f"{seat} has nowhere to expand and skips Logistics.")
                return
        rid = st["marker"]
        need = REGIONS[rid]["cost"] - p["logistics"].get(rid, 0)
        n = min(need, left)
        p["logistics"][rid] = p["logistics"].get(rid, 0) + n
        left -= n
        if p["logistics"][rid] >= REGIONS[rid]["cost"]:
            found_office(state, seat, rid, bonus=False)
            st["marker"] = marker_target(state, seat)
        else:
            say(state, f"{seat} places {n} Progress marker(s) towards {REGIONS[rid]['name']}.")


def sell(state: State, seat: str) -> None:
    """SI-STEVE-10: 1 Goods where only Steve has an Office; then round after round in
    shared regions; then as many as possible where only Steve is; alphabetical order."""
    p = state["players"][seat]
    mine = [r for r in alphabetical(state) if seat in state["regions"][r]["offices"]]
    alone = [r for r in mine if set(state["regions"][r]["offices"]) == {seat}]
    shared = [r for r in mine if r not in alone]
    sold: dict[str, int] = {}

    def put(rid: str) -> bool:
        if p["goods"] == 0 or not free_willing(state, seat, rid):
            return False
        place(state, seat, rid, 1)
        sold[rid] = sold.get(rid, 0) + 1
        return True

    for rid in alone:
        put(rid)
    progress = True
    while progress and p["goods"]:
        progress = False
        for rid in shared:
            progress = put(rid) or progress
    for rid in alone:
        while put(rid):
            pass
    for rid, n in sold.items():
        say(state, f"{seat} sells {n} Goods in {REGIONS[rid]['name']}.")
    if p["goods"]:
        say(state, f"{seat} cannot sell {p['goods']} Goods.")
