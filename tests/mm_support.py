"""Builders and checks for Mobile Markets rule tests."""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.mobile_markets import flow
from engine.mobile_markets.data import (
    CAMPAIGNS,
    CUSTOMERS,
    EVENTS,
    FEATURE_CARDS,
    STARTING_FEATURES,
    STARTING_TECHS,
    STEVE_CARDS,
    TECHS,
)
from engine.mobile_markets.game import GAME

# Example 1 of Planning: +1 price, 3 Technology, 2 Marketing, 2 Production, 2 covered
PLAN_EX1 = {"bottom": "B", "bottom_side": 0, "top_side": 0, "cover": [3, 4]}
# Example 2 of Planning: no price change, 3 Technology, 1 Marketing, 3 Production, 2 covered
PLAN_EX2 = {"bottom": "A", "bottom_side": 1, "top_side": 0, "cover": [3, 4]}


def new_game(n: int = 2, seed: int = 1, **options: Any) -> dict[str, Any]:
    return GAME.setup([f"p{i + 1}" for i in range(n)], seed, options)


def outcome(up: int = 0, down: int = 0, tech: int = 0, mkt: int = 0, prod: int = 0, covered: int = 1) -> dict[str, int]:
    return {"up": up, "down": down, "tech": tech, "mkt": mkt, "prod": prod, "covered": covered, "visible": 10 - covered}


def start_phase(state: dict[str, Any], phase: str, outcomes: dict[str, dict[str, int]] | None = None) -> dict[str, Any]:
    """From Planning: give each company the outcome given (default: nothing visible but
    1 covered) instead of a plan, then play on, every company passing its turns (no
    card bought, Marketing Points on Regular Customers, an empty product), until
    ``phase`` is about to begin."""
    outcomes = outcomes or {}
    if state["phase"] == "planning":
        for seat in state["seats"]:
            p = state["players"][seat]
            if not p["steve"]:
                p["plan"] = dict(PLAN_EX1)
        flow.run(state, until="pricing")  # the reveal (Steve Jr.'s card too)
        for seat in state["seats"]:
            if not state["players"][seat]["steve"]:
                state["players"][seat]["outcome"] = outcomes.get(seat, outcome())
    state["log"] = []
    return pass_until(state, phase)


def pass_until(state: dict[str, Any], phase: str) -> dict[str, Any]:
    while True:
        flow.run(state, until=phase)
        if state["phase"] in (phase, "over") and flow._fresh(state):
            return state
        pend = flow.pending(state)
        seat, prompt = next(iter(pend.items()))
        flow.act(state, seat, pass_action(prompt))


def pass_action(prompt: dict[str, Any]) -> dict[str, Any]:
    kind = prompt["type"]
    if kind == "technology":
        return {"type": "done"}
    if kind == "marketing":
        if prompt["points"] and prompt["decks"]:
            return {"type": "customer", "deck": "regular" if "regular" in prompt["decks"] else next(iter(prompt["decks"]))}
        return {"type": "done"}
    if kind == "product":
        return {"type": "product", "slots": {}}
    if kind == "plan":
        return {"type": "plan", "plan": dict(PLAN_EX1)}
    if kind == "free_card":
        return {"type": "free_card", "card": prompt["cards"][0]}
    raise RuntimeError(prompt)


def every_card(state: dict[str, Any]) -> Counter[str]:
    """Every card id where it lies now (a card in two places counts twice)."""
    c: Counter[str] = Counter()
    for pile in state["customers"].values():
        c.update(pile["deck"])
        c.update(pile["discard"])
    for col in state["market"].values():
        c.update(col)
    for d in state["displays"].values():
        c.update(d["deck"])
        c.update(d["row"])
        c.update(d["discard"])
    ev = state["events"]
    c.update(ev["deck"])
    c.update(ev["revealed"])
    c.update(ev["box"])
    c.update(state["box"])
    for p in state["players"].values():
        for key in ("techs", "features", "campaigns", "private", "sales"):
            c.update(p[key])
    if state["steve"] is not None:
        c.update(state["steve"]["deck"])
        c.update(e["card"] for e in state["steve"]["stack"])
    return c


def all_card_ids(steve: bool) -> Counter[str]:
    ids = [*CUSTOMERS, *EVENTS, *TECHS, *STARTING_TECHS, *FEATURE_CARDS, *STARTING_FEATURES, *CAMPAIGNS]
    if steve:
        ids += list(STEVE_CARDS)
    return Counter(ids)
