"""What a seat may see: the public board, every player's board, and one's own hand,
draft choices and prompt. Hidden: other hands, draft hands and picks, deck orders, the
PRNG and the seed."""

from __future__ import annotations

from typing import Any

from engine.age_of_automaton import audit, donation, flow, reliability, reputation, scoring
from engine.age_of_automaton.actions import discounts
from engine.age_of_automaton.common import State, held
from engine.age_of_automaton.data import (
    ACHIEVEMENTS,
    AUDITS,
    EQUIPMENT,
    RND,
    SALES,
    SPECIALISTS,
    SPONSORSHIP,
)
from engine.age_of_automaton.gains import detail
from engine.age_of_automaton.labels import label
from engine.errors import IllegalAction
from engine.jsonstate import clone


def _card(kind: str, cid: str) -> dict[str, Any]:
    src = {"equipment": EQUIPMENT, "rnd": RND, "sale": SALES, "specialist": SPECIALISTS}[kind][cid]
    return {k: v for k, v in src.items() if k != "source"}


def player_view(state: State, seat: str, me: bool) -> dict[str, Any]:
    p = state["players"][seat]
    columns: list[list[dict[str, Any]]] = [[], [], [], []]
    for e in p["equipment"]:
        if e["column"] is not None:
            columns[e["column"]].append(_card("equipment", e["id"]))
    out = {
        "colour": p["colour"],
        "credits": p["credits"],
        "resources": dict(p["res"]),
        "held": held(p),
        "limit": 10,
        "vp": p["vp"],
        "technology": {str(i + 1): n for i, n in enumerate(p["tech"])},
        "unbuilt": p["unbuilt"],
        "placed": p["placed"],
        "prospect": dict(p["prospect"]),
        "prospect_advanced": donation.advanced(p),
        "donation_limit": donation.limit(p),
        "reputation": p["rep"],
        "engineers": reputation.engineers(p),
        "donation": p["donation"],
        "relationships": dict(p["rel"]),
        "reliability": reliability.value(p),
        "reliability_section": reliability.section(p),
        "columns": columns,
        "unplaced_equipment": [e["id"] for e in p["equipment"] if e["column"] is None],
        "discounts": discounts(p),
        "rnd": [_card("rnd", c) for c in p["rnd"]] if me else len(p["rnd"]),
        "sale": [_card("sale", c) for c in p["sale"]] if me else len(p["sale"]),
        "hand_count": len(p["hand"]),
        "played": [dict(_card("specialist", c), rotated=c in p["rotated"]) for c in p["played"]],
        "contracts": p["contracts"],
        "achievements": list(p["achievements"]),
        "achievements_offered": list(state.get("offers", {}).get(seat) or []),
        "audit_tokens": p["audit_tokens"],
        "markers": list(p["markers"]),
        "markers_total": p["markers_total"],
        "passed": p["passed"],
        "score_now": scoring.breakdown(state, seat),
    }
    if me:
        out["hand"] = [_card("specialist", c) for c in p["hand"]]
    return out


def make_view(state: State, seat: str | None) -> dict[str, Any]:
    if seat is not None and seat not in state["players"]:
        raise IllegalAction(f"{seat!r} has no seat in this game")
    pend = flow.pending(state)
    au = state["audit"]
    view: dict[str, Any] = {
        "game": "age-of-automaton",
        "version": state["version"],
        "round": state["round"],
        "rounds": 5,
        "phase": state["phase"],
        "phase_title": flow.PHASE_TITLES.get(state["phase"], state["phase"]),
        "over": state["phase"] == "over",
        "seats": list(state["seats"]),
        "order": list(state["order"]),
        "next_order": list(state["next_order"]),
        "turn": state["turn"]["seat"] if state["turn"] else None,
        "rows": {k: [_card(k, c) for c in row] for k, row in state["rows"].items()},
        "decks": {k: len(v) for k, v in state["decks"].items()},
        "sponsorship": [
            {"id": t, "rounds": SPONSORSHIP[t]["rounds"], "gain": SPONSORSHIP[t]["gain"]}
            for t in state["sponsorship"]["row"]
        ],
        "achievements": [
            {"id": a, "name": ACHIEVEMENTS[a]["name"], "level": ACHIEVEMENTS[a]["level"], "need": ACHIEVEMENTS[a]["need"],
             "gain": ACHIEVEMENTS[a]["gain"], "claimed_by": list(m)}
            for a, m in state["achievements"].items()
        ],
        "audits": [
            {"id": c, "side": AUDITS[c]["side"], "text": audit.describe(c), "flipped": au["flipped"][i]}
            for i, c in enumerate(au["cards"])
        ],
        "audit_marker": au["pos"],
        "commons": [dict(_card("specialist", c), contracts=list(state["contracts_on"][c])) for c in state["commons"]],
        "market": list(state["market"]),
        "dice": clone(state["dice"]),
        "spaces": clone(state["spaces"]),
        "blocked_card": state["blocked"]["now"],
        "blocked_next": state["blocked"]["deck"][0] if state["blocked"]["deck"] else None,
        "vp_tokens": clone(state["vp_tokens"]),
        "players": {s: player_view(state, s, s == seat) for s in state["seats"]},
        "pending": sorted(pend),
        "secret": any(pr.get("secret") for pr in pend.values()),
        "result": clone(state["result"]),
        "last_round": clone(state.get("round_vp") or {}),
        "options": dict(state["options"]),
        "you": seat,
    }
    if state["draft"]:
        view["draft_pass"] = state["draft"]["pass"]
        view["draft_waiting"] = sorted(s for s in state["seats"] if state["draft"]["picks"][s] is None)
        if seat is not None:
            view["draft"] = {
                "hand": [_card("specialist", c) for c in state["draft"]["hands"][seat]],
                "kept": [_card("specialist", c) for c in state["draft"]["kept"][seat]],
                "picked": state["draft"]["picks"][seat],
            }
    if seat is not None:
        prompt = pend.get(seat)
        view["prompt"] = prompt
        if prompt is not None:  # (a Donation's many amounts are chosen by parts, unlabelled)
            acts = flow.claim_options(state, seat) if prompt["type"] == "donate" else flow.options(state, seat)
            view["choices"] = [{"action": a, "label": label(state, seat, a), **_detail(state, seat, a)} for a in acts]
    return view


def _detail(state: dict[str, Any], seat: str, action: dict[str, Any]) -> dict[str, str]:
    """``{"detail": …}``: the rest of a main action's numbers (a select's description)."""
    if action.get("type") in ("main", "extra", "resolve") and not action.get("skip") and not action.get("before"):
        kind = action.get("action") or state["asks"][0]["action"]
        text = detail(state, seat, kind, action)
        return {"detail": text} if text else {}
    return {}
