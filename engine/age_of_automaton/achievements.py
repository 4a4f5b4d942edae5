"""Achievements: claimed the moment a player meets one, with its benefit at once; the first
player(s) to meet a card also get 1 credit or 1 resource of any colour (AA-ACH-01)."""

from __future__ import annotations

from typing import Any

from engine.age_of_automaton import donation, effects, technology
from engine.age_of_automaton.common import State, say
from engine.age_of_automaton.data import ACHIEVEMENTS, TRACK_IDS


def stat(p: dict[str, Any], key: str) -> int:
    if key in ("equipment", "rnd", "sale"):
        return len(p[key])
    if key == "reputation":
        return p["rep"]
    if key == "specialists":
        return len(p["played"])
    if key == "prospect":
        return donation.advanced(p)
    if key == "prospect_height":
        return max(p["prospect"][t] for t in TRACK_IDS)
    if key == "donation":
        return p["donation"]
    if key == "built":
        return technology.built(p)
    raise ValueError(key)


def met(p: dict[str, Any], card: str) -> bool:
    return all(stat(p, k) >= n for k, n in ACHIEVEMENTS[card]["need"].items())


def describe(card: str) -> str:
    words = {
        "equipment": "Equipment cards",
        "rnd": "R&D cards",
        "sale": "Sale Orders",
        "reputation": "reputation",
        "specialists": "Specialists played",
        "prospect": "Prospect tracks advanced",
        "prospect_height": "spaces up one Prospect track",
        "donation": "Donation spaces",
        "built": "automatons on the Technology track",
    }
    need = ", ".join(f"{n} {words[k]}" for k, n in ACHIEVEMENTS[card]["need"].items())
    return f"{need} → {effects.describe(ACHIEVEMENTS[card]['gain'])}"


def check(state: State) -> bool:
    """Claim every Achievement met now, in turn order; True if any was claimed."""
    claimed = False
    stats: dict[str, dict[str, int]] = {}
    for card, marks in state["achievements"].items():
        if len(marks) == len(state["order"]):
            continue
        first = not marks
        need = ACHIEVEMENTS[card]["need"]
        for seat in state["order"]:
            if seat in marks:
                continue
            p = state["players"][seat]
            mine = stats.setdefault(seat, {})
            ok = True
            for k, n in need.items():
                if k not in mine:
                    mine[k] = stat(p, k)
                if mine[k] < n:
                    ok = False
                    break
            if not ok:
                continue
            marks.append(seat)
            p["achievements"].append(card)
            info = ACHIEVEMENTS[card]
            say(state, f"{seat} achieves {info['name']} ({describe(card)}).")
            atoms = list(info["gain"])
            if first:
                atoms.append({"any_or_credits": 1, "why": f"first to achieve {info['name']}"})
            effects.queue(state, seat, atoms, why=info["name"])
            claimed = True
    return claimed


__all__ = ["check", "met", "describe"]
