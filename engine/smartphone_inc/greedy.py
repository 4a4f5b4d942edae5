"""A greedy heuristic player for Smartphone Inc. (deterministic; for demos, tests and
seat takeovers). Not a rulebook AI: Steve is that."""

from __future__ import annotations

import zlib
from typing import Any

from engine.smartphone_inc import decisions, flow, planning
from engine.smartphone_inc.common import State, has_effect
from engine.smartphone_inc.data import REGIONS
from engine.smartphone_inc.legal import enumerate_actions
from engine.standard import prompt_for


def _capacity(state: State, seat: str, price: int) -> int:
    techs = state["players"][seat]["techs"]
    n = 0
    for rid, reg in state["regions"].items():
        if seat in reg["offices"] and reg["retailer"] is None:
            for b in REGIONS[rid]["buyers"]:
                if ("price" in b and price <= b["price"]) or ("tech" in b and b["tech"] in techs):
                    n += 1
    return n


def style(seat: str) -> tuple[float, float]:
    """How much this seat's greedy player values Research and Logistics: a stable
    per-seat taste (from the seat id, not process randomness), so that bots facing the
    same position do not all make the same decision."""
    h = zlib.crc32(seat.encode())
    return 1.2 + (h % 9) / 10, 1.8 + (h // 9 % 9) / 10


def plan_scorer(state: State, seat: str) -> Any:
    """A function scoring a plan outcome for ``seat`` now (expected sales + growth)."""
    p = state["players"][seat]
    capacity = {price: _capacity(state, seat, price) for price in range(1, 12)}
    later = 5 - state["round"]
    base_goods = p["tokens"] + p["goods"]
    research_w, logistics_w = style(seat)

    def score(outcome: dict[str, Any]) -> float:
        a = outcome["active"]
        price = min(11, max(1, 5 - a["down"] + a["up"]))
        goods = a["prod"] + outcome["covered"] + decisions.face_down_count(outcome) + base_goods
        sold = min(goods, capacity[price])
        growth = research_w * a["research"] + logistics_w * a["logistics"] + 2.5 * min(a["improve"], 1)
        return sold * price + later * growth

    return score


def greedy_action(state: State, seat: str) -> dict[str, Any]:
    prompt = prompt_for(flow, state, seat, ValueError)
    kind = prompt["type"]
    if kind == "plan":
        owned, four_g = prompt["improvements"], has_effect(state, seat, "improvements_off_edge")
        # the score reads only what goods_effects keeps distinct, and max() keeps the
        # first best: the same choice as over every distinct outcome, a tenth of the work;
        # a Mini-upgrade left face down makes no Goods (Update 1.1), as at the reveal
        literal = planning.literal_cover(state)  # the game's rules version counts covered cells
        options = decisions.goods_effects(owned, four_g, literal_cover=literal)
        best = max(options, key=plan_scorer(state, seat))
        return {"type": "plan", "plan": decisions.outcome_plan(owned, four_g, best["ref"], literal_cover=literal)}
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
