"""End-game scoring (AA-END-01..09)."""

from __future__ import annotations

from typing import Any

from engine.age_of_automaton import relationships, reliability, technology
from engine.age_of_automaton.common import State, held, say
from engine.age_of_automaton.data import BOARD, PARTS, RND, SALES, SPECIALISTS, TRACKS

EQUIPMENT_VP = [0, 1, 2, 3, 5, 7, 9]
RND_SET_VP = [0, 2, 5, 8, 12, 16]


def equipment_vp(n: int) -> int:
    return EQUIPMENT_VP[min(n, len(EQUIPMENT_VP) - 1)]


def rnd_sets(parts: list[str]) -> list[int]:
    """Sizes of the sets of different parts; a duplicate starts a new set (AA-END-03)."""
    counts = [parts.count(x) for x in PARTS]
    return [sum(1 for c in counts if c >= k) for k in range(1, max(counts, default=0) + 1)]


def rnd_vp(parts: list[str]) -> int:
    return sum(RND_SET_VP[s] for s in rnd_sets(parts))


def relationship_vp(p: dict[str, Any]) -> dict[str, int]:
    return {
        "green": relationships.value(p, "green") * len(p["achievements"]),
        "blue": relationships.value(p, "blue") * len(p["played"]),
        "orange": relationships.value(p, "orange") * reliability.section(p),
    }


def automaton_vp(p: dict[str, Any]) -> int:
    total = technology.total_level(p)
    return (total + 1) // 2


def breakdown(state: State, seat: str) -> dict[str, int]:
    p = state["players"][seat]
    rel = relationship_vp(p)
    return {
        "in_game": p["vp"],
        "prospect": sum(TRACKS[t]["spaces"][h]["vp"] for t, h in p["prospect"].items()),
        "equipment": equipment_vp(len(p["equipment"])),
        "rnd": rnd_vp([RND[c]["part"] for c in p["rnd"]]),
        "sale": sum(SALES[c]["vp"] for c in p["sale"]),
        "reputation": BOARD["reputation"]["vp"][p["rep"]],
        "donation": BOARD["donation"]["vp"][p["donation"]],
        "relationships": sum(rel.values()),
        "specialists": sum(SPECIALISTS[c]["vp"] for c in p["played"]),
        "audits": -3 * p["audit_tokens"],
        "automatons": automaton_vp(p),
        "leftovers": (p["credits"] + held(p)) // 3,
    }


def final_scores(state: State) -> dict[str, Any]:
    rows = []
    for seat in state["seats"]:
        p = state["players"][seat]
        parts = breakdown(state, seat)
        rows.append(
            {
                "seat": seat,
                "colour": p["colour"],
                "vp": sum(parts.values()),
                "breakdown": parts,
                "reputation": p["rep"],
                "reliability": reliability.value(p),
            }
        )

    def key(r: dict[str, Any]) -> tuple[int, int, int]:
        return (r["vp"], r["reputation"], r["reliability"])

    rows.sort(key=key, reverse=True)
    for r in rows:
        r["rank"] = 1 + sum(1 for o in rows if key(o) > key(r))
    return {"scores": rows, "winners": [r["seat"] for r in rows if r["rank"] == 1], "rounds": 5}


def end_game(state: State) -> None:
    state["phase"] = "over"
    state["turn"] = None
    state["result"] = final_scores(state)
    for r in state["result"]["scores"]:
        say(state, f"{r['seat']}: {r['vp']} VP in all.")
    w = state["result"]["winners"]
    say(state, "Game over. " + (" and ".join(w) + (" share the victory." if len(w) > 1 else " wins.")))
