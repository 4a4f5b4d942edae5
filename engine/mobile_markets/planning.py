"""Phase 2 Planning: secret, simultaneous plans revealed together (MM-PLAN-01)."""

from __future__ import annotations

from typing import Any

from engine.errors import require
from engine.mobile_markets import pads, steve_jr
from engine.mobile_markets.common import State, is_steve, say
from engine.mobile_markets.data import PADS


def unsealed(state: State) -> list[str]:
    return [s for s in state["seats"] if not is_steve(state, s) and state["players"][s]["plan"] is None]


def prompt(state: State, seat: str) -> dict[str, Any]:
    return {"type": "plan", "secret": True, "round": state["round"], "arrangements": len(pads.arrangements())}


def pad_layout() -> dict[str, Any]:
    """The Pads as printed and the covered-cell shapes a plan may use (for pictures and
    the planner)."""
    return {
        "pads": PADS,
        "covers": [list(c) for c in pads.cover_shapes()],
        # each different effect (price change, points, Goods) with a plan giving it
        "choices": [{k: v for k, v in d.items() if k != "outcome"} for d in pads.distinct()],
    }


def seal(state: State, seat: str, action: dict[str, Any]) -> None:
    require(state["players"][seat]["plan"] is None, "your plan is already sealed")
    plan = pads.validate(action.get("plan"))
    state["players"][seat]["plan"] = plan
    say(state, f"{seat} has sealed a plan.")


def reveal(state: State) -> None:
    """All plans are in: reveal them together; Steve Jr. reveals his card."""
    for seat in state["seats"]:
        p = state["players"][seat]
        if p["steve"]:
            continue
        p["outcome"] = pads.evaluate(p["plan"])
        say(state, f"{seat} reveals: {pads.describe(p['outcome'])}.")
    if state["steve"] is not None:
        steve_jr.reveal_card(state)
