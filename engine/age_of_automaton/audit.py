"""Audit phase from round 2: roll the Audit die, move the marker, resolve every card whose
trigger is reached or passed, flip it (AA-AUD-01..03)."""

from __future__ import annotations

from typing import Any

from engine.age_of_automaton import donation
from engine.age_of_automaton.common import State, held, say
from engine.age_of_automaton.data import AUDITS, BOARD, ROMAN
from engine.rng import Rng

TRACK = BOARD["audit_track"]
PER = TRACK["spaces_per_card"]
LAST = TRACK["cards"] * PER


def trigger(card_index: int) -> int:
    """Marker positions: 0 before the first card, card k spans k*PER+1 .. k*PER+PER."""
    return card_index * PER + 1 + TRACK["trigger"]


def meets(state: State, seat: str, card: str) -> bool:
    a = AUDITS[card]
    p = state["players"][seat]
    t = a["type"]
    if t == "credits":
        return p["credits"] >= a["n"]
    if t == "resources":
        return held(p) >= a["n"]
    if t == "cards":
        return len(p[a["card"]]) >= a["n"]
    if t == "prospect":
        return donation.advanced(p) >= a["n"]
    if t == "workers":
        return p["tech"][a["level"] - 1] >= a["n"]
    raise ValueError(t)


def describe(card: str) -> str:
    a = AUDITS[card]
    t, n = a["type"], a["n"]
    if t == "credits":
        return f"at least {n} credits"
    if t == "resources":
        return f"at least {n} resource tokens"
    if t == "cards":
        kind = {"equipment": "Equipment", "rnd": "R&D", "sale": "Sale Order"}[a["card"]]
        return f"at least {n} {kind} card{'s' if n != 1 else ''}"
    if t == "prospect":
        return f"at least {n} Prospect track{'s' if n != 1 else ''} advanced"
    return f"at least {n} Level {ROMAN[a['level']]} automaton{'s' if n != 1 else ''}"


def resolve(state: State, index: int) -> None:
    card = state["audit"]["cards"][index]
    say(state, f"Audit: each player needs {describe(card)}.")
    for seat in state["order"]:
        if meets(state, seat, card):
            say(state, f"{seat} passes the Audit.")
        else:
            state["players"][seat]["audit_tokens"] += 1
            say(state, f"{seat} fails the Audit and takes a -3 VP token.")
    state["audit"]["flipped"][index] = True


def run(state: State, roll: int | None = None) -> None:
    au: dict[str, Any] = state["audit"]
    if roll is None:
        rng = Rng(state["rng"])
        die = TRACK["die"]
        roll = die[rng.below(len(die))]
        state["rng"] = rng.state
    first = state["order"][0]
    state["dice"] = {"kind": "audit", "seat": first, "faces": [roll]}
    start = au["pos"]
    au["pos"] = min(LAST, start + roll)
    say(state, f"Audit phase: {first} rolls the Audit die: {roll}; the marker moves to space {au['pos']}.")
    for k in range(TRACK["cards"]):
        if not au["flipped"][k] and start < trigger(k) <= au["pos"]:
            resolve(state, k)
            if au["pos"] == trigger(k):
                au["pos"] = k * PER + PER
                say(state, f"The Audit marker moves to the rightmost space of the flipped card ({au['pos']}).")
