"""A greedy heuristic player for Smartphone Inc. (deterministic; for demos, tests and
seat takeovers). Not a rulebook AI: Steve is that."""

from __future__ import annotations

from typing import Any

from engine.smartphone_inc import flow, pads
from engine.smartphone_inc.common import State, has_effect
from engine.smartphone_inc.data import REGIONS


def _capacity(state: State, seat: str, price: int) -> int:
    techs = state["players"][seat]["techs"]
    n = 0
    for rid, reg in state["regions"].items():
        if seat in reg["offices"] and reg["retailer"] is None:
            for b in REGIONS[rid]["buyers"]:
                if ("price" in b and price <= b["price"]) or ("tech" in b and b["tech"] in techs):
                    n += 1
    return n


def plan_score(state: State, seat: str, outcome: dict[str, Any]) -> float:
    a = outcome["active"]
    p = state["players"][seat]
    price = max(1, 5 - a["down"] + a["up"])
    goods = a["prod"] + outcome["covered"] + outcome["face_down"] + p["tokens"] + p["goods"]
    sold = min(goods, _capacity(state, seat, price))
    later = 5 - state["round"]
    return sold * price + later * (1.6 * a["research"] + 2.2 * a["logistics"] + 2.5 * min(a["improve"], 1))


def greedy_action(state: State, seat: str) -> dict[str, Any]:
    prompt = flow.pending(state).get(seat)
    if prompt is None:
        raise ValueError(f"{seat} has nothing to decide")
    kind = prompt["type"]
    if kind == "plan":
        options = pads.distinct_outcomes(prompt["improvements"], has_effect(state, seat, "improvements_off_edge"))
        best = max(options, key=lambda o: plan_score(state, seat, o))
        return {"type": "plan", "plan": best["plan"]}
    from engine.smartphone_inc.game import enumerate_actions

    actions = enumerate_actions(state, seat, prompt)
    if kind == "research":
        need = prompt["needed"]
        return max(actions, key=lambda a: (sum(1 for t, n in a["place"].items() if n >= need[t]), sum(a["place"].values())))
    if kind == "logistics":
        need = prompt["needed"]
        return max(actions, key=lambda a: (sum(1 for r, n in a["place"] if n >= need[r]), sum(n for _, n in a["place"])))
    if kind == "nfc":
        return actions[0]
    if kind == "retailer_bonus":
        return actions[0]
    return actions[0]
