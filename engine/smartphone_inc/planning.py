"""Phase 1. Planning (SI-PLAN-01..12): secret simultaneous decisions, revealed together.

The Pad geometry lives in :mod:`engine.smartphone_inc.pads`; this module collects the
sealed decisions, keeps them hidden until every company has planned, then reveals
them and records each company's *outcome* (active symbols, covered cells, face-down
Improvements) which the later phases read.
"""

from __future__ import annotations

from typing import Any

from engine.errors import require
from engine.smartphone_inc import new_technologies, pads, steve
from engine.smartphone_inc.common import State, has_effect, is_steve, say
from engine.smartphone_inc.data import SYMBOL_NAMES, SYMBOLS
from engine.smartphone_inc.outcome_yields import summary_for, summary_of_ref, yields, yields_for

# what a revealed decision gives lives in outcome_yields (the phases read it too); it is
# named here as well, where the planner and the pictures have always found it
__all__ = ["summary_for", "summary_of_ref", "yields", "yields_for"]


def literal_cover(state: State) -> bool:
    """Correction 2 (rules version 2 on): bottom cells under an "under" Improvement make
    no covered-cell Goods (DATA.md); version 1 games keep counting them."""
    return int(state.get("rules", 1)) >= 2


def unsealed(state: State) -> list[str]:
    return [s for s in state["seats"] if not is_steve(state, s) and state["players"][s]["plan"] is None]


def prompt(state: State, seat: str) -> dict[str, Any]:
    p = state["players"][seat]
    return {
        "type": "plan",
        "secret": True,  # a simultaneous hidden decision: ask in private
        "improvements": list(p["improvements"]),
        "has_4g": has_effect(state, seat, "improvements_off_edge"),
    }


def seal(state: State, seat: str, action: dict[str, Any]) -> None:
    require(state["players"][seat]["plan"] is None, "your plan is already sealed")
    p = state["players"][seat]
    plan = pads.validate_plan(
        action.get("plan"), p["improvements"], has_effect(state, seat, "improvements_off_edge")
    )
    p["plan"] = plan
    done = len(state["seats"]) - len(unsealed(state)) - (1 if state["steve"] else 0)
    humans = len(state["seats"]) - (1 if state["steve"] else 0)
    say(state, f"{seat} sealed a plan ({done}/{humans}).")


def unseal(state: State, seat: str) -> None:
    """Take a sealed plan back while Planning is open (the app's "change my plan"): the
    seat plans again. Nothing about the plan is said; once every plan is in, the reveal
    has happened and there is nothing left to unseal (SI-PLAN-12 holds after Phase 1)."""
    p = state["players"][seat]
    require(not is_steve(state, seat), "Steve decides by his own rules")
    require(p["plan"] is not None, "your plan is not sealed")
    p["plan"] = None
    done = len(state["seats"]) - len(unsealed(state)) - (1 if state["steve"] else 0)
    humans = len(state["seats"]) - (1 if state["steve"] else 0)
    say(state, f"{seat} took their plan back to change it ({done}/{humans}).")


def can_unseal(state: State, seat: str) -> bool:
    return (
        state["phase"] == "planning"
        and seat in state["players"]
        and not is_steve(state, seat)
        and state["players"][seat]["plan"] is not None
    )


def reveal(state: State) -> None:
    """All decisions are shown together (SI-PLAN-01)."""
    for seat in state["seats"]:
        p = state["players"][seat]
        if is_steve(state, seat):
            p["outcome"] = steve.plan_outcome(state)
            continue
        ev = pads.evaluate(
            p["plan"], p["improvements"], has_effect(state, seat, "improvements_off_edge"), literal_cover(state)
        )
        p["outcome"] = {
            "active": {k: ev["active"].get(k, 0) for k in SYMBOLS},
            "covered": ev["covered"],
            "face_down": new_technologies.face_down_goods(ev["face_down"]),  # no Goods from a Mini-upgrade
        }
        o = p["outcome"]
        say(
            state,
            f"{seat} reveals: {o['covered']} covered, "
            + ", ".join(f"{SYMBOL_NAMES[k]} {v}" for k, v in o["active"].items() if v)
            + (f", {len(o['face_down'])} face down" if o["face_down"] else ""),
        )
