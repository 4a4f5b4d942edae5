"""A greedy heuristic player for Mobile Markets (deterministic; for demos, tests and
seat takeovers). Not a rulebook AI: Steve Jr. is that."""

from __future__ import annotations

import itertools
from typing import Any

from engine.mobile_markets import flow, market, pads, production, sales
from engine.mobile_markets.common import State
from engine.mobile_markets.data import ALL_FEATURES, PRICE_HIGH, PRICE_LOW, ROUNDS
from engine.standard import prompt_for


def _demand(state: State, seat: str, price: int) -> int:
    """Customers (Private and market) who would buy at ``price`` with everything the
    company owns placed (an optimistic guess: other companies sell too)."""
    p = state["players"][seat]
    icons = {i for f in p["features"] for i in ALL_FEATURES[f]["icons"]}
    stars = sum(ALL_FEATURES[f]["stars"] for f in p["features"])
    seen = {"price": price, "price_shift": {}, "icons": icons, "stars": stars, "star_need": 0, "stars_met": False}
    pool = list(p["private"]) + market.sale_order(state)
    rivals = max(1, len(state["seats"]) - 1)
    wanted = sum(1 for c in pool if market.buys(c, seen))
    return len(p["private"]) + (wanted - len(p["private"])) // rivals


def plan_action(state: State, seat: str) -> dict[str, Any]:
    later = ROUNDS - state["round"]
    base_goods = production.event_goods(state)
    best, best_score = None, None
    for plan in pads.arrangements():
        o = pads.evaluate(plan)
        price = max(PRICE_LOW, min(PRICE_HIGH, 5 + o["up"] - o["down"]))
        goods = base_goods + pads.goods(o)
        sold = min(goods, _demand(state, seat, price))
        score = sold * (price - 1) + (1.5 + 0.5 * later) * o["tech"] + (1.0 + 0.3 * later) * o["mkt"]
        if best_score is None or score > best_score:
            best, best_score = plan, score
    return {"type": "plan", "plan": dict(best)}


def product_action(state: State, seat: str, prompt: dict[str, Any]) -> dict[str, Any]:
    hand = list(prompt["features"])
    free = list(prompt["slots"])
    order = [s for s in free if s in ("1", "2")] + [s for s in free if s not in ("1", "2", "3")] + ["3"]
    candidates: list[dict[str, Any]] = []
    for k in range(min(len(hand), len(free)) + 1):
        for cards in itertools.combinations(hand, k):
            candidates.append({"type": "product", "slots": dict(zip(order[:k], cards, strict=True))})
            if len(candidates) > 120:
                break
    if prompt["tokens"]:
        candidates = [{**c, "tokens": prompt["tokens"]} for c in candidates]
    best = max(candidates, key=lambda a: sales.preview(state, seat, a)["profit"])
    return best


def greedy_action(state: State, seat: str) -> dict[str, Any]:
    prompt = prompt_for(flow, state, seat, ValueError)
    kind = prompt["type"]
    if kind == "plan":
        return plan_action(state, seat)
    if kind == "technology":
        offers = prompt["offers"]
        techs = [o for o in offers if o["display"] == "technology"]
        pick = max(techs or offers, key=lambda o: (o["cost"], o["card"]))
        return {"type": "buy", "card": pick["card"]} if offers else {"type": "done"}
    if kind == "marketing":
        if prompt["offers"] and prompt["points"]:
            pick = max(prompt["offers"], key=lambda o: (o["cost"], o["card"]))
            return {"type": "buy", "card": pick["card"]}
        if prompt["points"] and prompt["decks"]:
            p = state["players"][seat]
            want = "complex" if len(p["features"]) >= 2 else "regular"
            deck = want if want in prompt["decks"] else next(iter(prompt["decks"]))
            return {"type": "customer", "deck": deck}
        return {"type": "done"}
    if kind == "product":
        return product_action(state, seat, prompt)
    if kind == "free_card":
        return {"type": "free_card", "card": prompt["cards"][0]}
    raise ValueError(kind)
