"""Donation phase, in reverse turn order: up to (advanced Prospect tracks + 2) resources
and/or credits; megaphone spaces give 1 reputation, except on a Donation-icon move
(AA-DON-01/02)."""

from __future__ import annotations

from typing import Any

from engine.age_of_automaton import reputation
from engine.age_of_automaton.common import State, compositions, fmt_res, say
from engine.age_of_automaton.data import BOARD, COLOURS
from engine.errors import IllegalAction

DON = BOARD["donation"]


def advanced(p: dict[str, Any]) -> int:
    return sum(1 for h in p["prospect"].values() if h > 0)


def limit(p: dict[str, Any]) -> int:
    return advanced(p) + 2


def move(state: State, seat: str, n: int, megaphones: bool = True) -> None:
    p = state["players"][seat]
    for _ in range(n):
        if p["donation"] >= DON["max"]:
            break
        p["donation"] += 1
        if p["donation"] in DON["reputation_spaces"]:
            if megaphones:
                reputation.gain(state, seat, 1)
            else:
                say(state, f"{seat} reaches a reputation space by an ability and gains no reputation.")
    say(state, f"{seat}'s Donation marker is on space {p['donation']}.")


def options(state: State, seat: str) -> list[dict[str, Any]]:
    p = state["players"][seat]
    caps = dict(p["res"], credits=p["credits"])
    out = []
    for total in range(limit(p), -1, -1):
        out += [{"type": "donate", "give": c} for c in compositions(total, [*COLOURS, "credits"], caps)]
    return out


def donate(state: State, seat: str, action: dict[str, Any]) -> None:
    p = state["players"][seat]
    give = action.get("give")
    if not isinstance(give, dict):
        raise IllegalAction("say what to donate: a mapping of colour or 'credits' to a number")
    total = 0
    for k, v in give.items():
        if k not in (*COLOURS, "credits") or not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise IllegalAction("donate red, blue, yellow or credits, in whole numbers")
        have = p["credits"] if k == "credits" else p["res"][k]
        if v > have:
            raise IllegalAction(f"you do not have {v} {k}")
        total += v
    if total > limit(p):
        raise IllegalAction(f"you may donate at most {limit(p)} (advanced Prospect tracks + 2)")
    give = dict(sorted(give.items()))  # the state never depends on the action's key order
    for k, v in give.items():
        if k == "credits":
            p["credits"] -= v
        else:
            p["res"][k] -= v
    res = {k: v for k, v in give.items() if k != "credits"}
    say(state, f"{seat} donates {fmt_res(res, give.get('credits', 0))}.")
    if total:
        move(state, seat, total)
