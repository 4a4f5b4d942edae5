"""Phase 8. Receive VP, the next-round reset, and the end of the game
(SI-VP-01..02, SI-END-01..03)."""

from __future__ import annotations

from typing import Any

from engine.smartphone_inc import control, directives, improve, new_technologies
from engine.smartphone_inc.common import State, goods_on, has_effect, patent_vp, say
from engine.smartphone_inc.data import REGIONS, RETAILERS, ROUNDS, START_PRICE


def receive_vp(state: State) -> None:
    """SI-VP-01; the round's result stays in ``last_round`` until the next Phase 8."""
    gains = {s: 0 for s in state["seats"]}
    controls: dict[str, dict[str, int]] = {}
    for rid in state["regions"]:
        for seat, vp in control.control_vp(state, rid).items():
            gains[seat] += vp
            controls.setdefault(rid, {})[seat] = vp
            say(state, f"{seat} controls {REGIONS[rid]['name']}: +{vp} VP.")
    sold_total: dict[str, int] = {}
    for seat in state["seats"]:
        p = state["players"][seat]
        sold = sum(goods_on(state, seat, r) for r in state["regions"])
        gains[seat] += sold * p["price"]
        if has_effect(state, seat, "spatial_vp") or has_effect(state, seat, "spatial_goods"):
            firsts = sum(1 for rid in controls if control.ranking(state, rid)[:1] == [seat])
            gains[seat] += new_technologies.phase_8(state, seat, firsts)  # SU-TEC-08/09
        p["vp"] += gains[seat]
        sold_total[seat] = sold
        say(state, f"{seat} sold {sold} Goods at {p['price']}: {gains[seat]} VP this phase, {p['vp']} in all.")
    state["last_round"] = {"round": state["round"], "control": controls, "vp": gains, "sold": sold_total}


def reset_round(state: State) -> None:
    """SI-VP-02: Goods leave the board, the Block is renewed, prices return to 5."""
    for rid, reg in state["regions"].items():
        for seat in reg["sold"]:
            if seat is not None:
                state["players"][seat]["supply"] += 1
        for i in (state.get("seconds") or {}).get(rid, []):  # second Goods (SU-TEC-04)
            state["players"][reg["sold"][i]]["supply"] += 1
        reg["sold"] = [None] * len(REGIONS[rid]["buyers"])
    if state.get("seconds"):
        state["seconds"] = {}
    improve.refill(state)
    new_technologies.reset_round(state)
    for seat in state["seats"]:
        p = state["players"][seat]
        p["price"] = START_PRICE
        p["plan"] = None
        p["outcome"] = None
    state["round"] += 1


def retailer_vp(state: State, seat: str) -> int:
    total = 0
    for reg in state["regions"].values():
        ret = reg["retailer"]
        if ret is None:
            continue
        vps = RETAILERS[ret["id"]]["sides"][ret["side"]]["vp"]
        for i, s in enumerate(reg["offices"]):
            if s == seat and i < len(vps):
                total += vps[i]
    return total


def final_scores(state: State) -> dict[str, Any]:
    """SI-END-02/03: VP + Patents + Retailers; ties: most Technologies, then Patents."""
    rows = []
    counted_already = bool(state["options"].get("hardcore"))  # SU-HC-08: scored when gained
    for seat in state["seats"]:
        p = state["players"][seat]
        patents = 0 if counted_already else sum(patent_vp(state, t) for t in p["patents"])
        retail = 0 if counted_already else retailer_vp(state, seat)
        orders = directives.final_vp(state, seat)  # SU-DIR-05
        row = {
            "seat": seat,
            "colour": p["colour"],
            "vp": p["vp"] + patents + retail + orders,
            "scored": p["vp"],
            "patent_vp": patents,
            "retailer_vp": retail,
            "technologies": len(p["techs"]),
            "patents": len(p["patents"]),
        }
        if directives.on(state):
            row["directive_vp"] = orders
        rows.append(row)

    def key(r: dict[str, Any]) -> tuple[int, int, int]:
        return (r["vp"], r["technologies"], r["patents"])

    rows.sort(key=key, reverse=True)
    for r in rows:
        r["rank"] = 1 + sum(1 for o in rows if key(o) > key(r))
    winners = [r["seat"] for r in rows if r["rank"] == 1]
    return {"scores": rows, "winners": winners, "rounds": ROUNDS}


def end_game(state: State) -> None:
    state["phase"] = "over"
    state["result"] = final_scores(state)
    w = state["result"]["winners"]
    say(state, "Game over. " + (" and ".join(w) + (" share the victory." if len(w) > 1 else " wins.")))
