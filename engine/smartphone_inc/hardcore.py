"""Hardcore Mode (Update 1.1, SU-HC-01..08): companies pay for their decision and their
production, score Patents and Retailers at once, and pay or earn interest; VP may go
below zero. Enabled by ``options["hardcore"]``; every function here is a no-op in the
base game so the phases can call them unconditionally.

Readings (DATA.md): the decision's price list counts the *active* icons; each Improve
Production symbol on the decision, active or covered ("the yellow factory or yellow
inactive symbol"), takes 2 off the payment, which never goes below 0; Price Down's
"+1" lowers the payment by 1. Steve pays like a company (his icons are all active).
"""

from __future__ import annotations

import math

from engine.smartphone_inc import pads
from engine.smartphone_inc.common import State, is_steve, patent_vp, say, tech_name
from engine.smartphone_inc.data import IMPROVEMENTS, RETAILERS
from engine.smartphone_inc.priority import priority_order

# SU-HC-01: VP paid per active icon (negative: the company gets it back)
ICON_COST = {"research": 3, "logistics": 2, "up": 1, "prod": 1, "improve": 0, "down": -1}
IMPROVE_DISCOUNT = 2  # SU-HC-02


def on(state: State) -> bool:
    return bool(state["options"].get("hardcore"))


def _pay(state: State, seat: str, vp: int, why: str) -> None:
    if vp:
        state["players"][seat]["vp"] -= vp
        verb = f"pays {vp} VP" if vp > 0 else f"gets {-vp} VP"
        say(state, f"{seat} {verb} ({why}); {state['players'][seat]['vp']} VP.")


def improve_symbols(state: State, seat: str) -> int:
    """Improve Production symbols on the decision, active or covered (SU-HC-02)."""
    p = state["players"][seat]
    if is_steve(state, seat):
        return p["outcome"]["active"]["improve"]
    plan = p["plan"]
    bottom, top_side = plan["bottom"], plan["top"]["side"]
    top = "B" if bottom["pad"] == "A" else "A"
    cells = [c for row in pads.pad_cells(bottom["pad"], bottom["side"]) for c in row]
    cells += [c for row in pads.pad_cells(top, top_side) for c in row]
    for imp in plan["improvements"]:
        cells += list(IMPROVEMENTS[imp["id"]])
    return cells.count("improve")


def decision_cost(state: State, seat: str) -> int:
    active = state["players"][seat]["outcome"]["active"]
    cost = sum(ICON_COST[k] * n for k, n in active.items())
    return max(0, cost - IMPROVE_DISCOUNT * improve_symbols(state, seat))


def pay_for_decisions(state: State) -> None:
    """SU-HC-01/02: after the reveal, from the lowest price."""
    if not on(state):
        return
    for seat in priority_order(state):
        _pay(state, seat, decision_cost(state, seat), "for its decision")


def pay_for_production(state: State, seat: str, goods: int) -> None:
    """SU-HC-03: 1 VP per Goods produced."""
    if on(state):
        _pay(state, seat, goods, f"for {goods} Goods produced")


def patent_now(state: State, seat: str, tech: str) -> None:
    """SU-HC-04: a Patent's VP at once."""
    if on(state):
        _pay(state, seat, -patent_vp(state, tech), f"the {tech_name(state, tech)} Patent")


def interest(state: State, seat: str) -> None:
    """SU-HC-05: after placing Research markers: debt costs 1 per 10 (rounded up),
    savings earn 1 per 20 (rounded up)."""
    if not on(state):
        return
    vp = state["players"][seat]["vp"]
    if vp < 0:
        _pay(state, seat, math.ceil(-vp / 10), "interest on its debt")
    elif vp > 0:
        _pay(state, seat, -math.ceil(vp / 20), "interest")


def retailer_space_vp(state: State, rid: str, index: int) -> int:
    ret = state["regions"][rid]["retailer"]
    vps = RETAILERS[ret["id"]]["sides"][ret["side"]]["vp"]
    return vps[index] if index < len(vps) else 0


def office_placed(state: State, seat: str, rid: str) -> None:
    """SU-HC-06: Retailer VP when the Office is placed. What it was paid is recorded
    (``retailer_paid``, by region: one Office of a colour per Retailer) so that exactly
    that is taken back when it leaves; an Office that shifts left onto a better space
    gains nothing (it was not placed there; DATA.md)."""
    if on(state) and state["regions"][rid]["retailer"] is not None:
        index = len(state["regions"][rid]["offices"]) - 1
        vp = retailer_space_vp(state, rid, index)
        state["players"][seat].setdefault("retailer_paid", {})[rid] = vp
        _pay(state, seat, -vp, "a Retailer space")


def office_leaves(state: State, seat: str, rid: str, index: int) -> None:
    """SU-HC-06: ... and lost if that Office moves away: the VP it was paid. (An Office
    placed before the record existed pays back the value of space ``index``, the space
    it sat on when it left.)"""
    if on(state) and state["regions"][rid]["retailer"] is not None:
        paid = state["players"][seat].get("retailer_paid", {})
        vp = paid.pop(rid) if rid in paid else retailer_space_vp(state, rid, index)
        _pay(state, seat, vp, "its Office left a Retailer")
