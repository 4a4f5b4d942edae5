"""Phase 5. Research Technology and Patents (SI-RES-01..08)."""

from __future__ import annotations

from typing import Any

from engine.errors import as_int, require
from engine.smartphone_inc import new_technologies, technologies
from engine.smartphone_inc.common import (
    State,
    end_of_step,
    markers_left,
    say,
    tech_cost,
    tech_costs,
    tech_id,
    tech_name,
)
from engine.smartphone_inc.data import TECH_ORDER
from engine.smartphone_inc.outcome_yields import yields


def markers(state: State, seat: str) -> int:
    """SI-RES-01: one Progress marker per active Research symbol (+1 for Steve, SI-STEVE-03)."""
    return yields(state, seat, state["players"][seat]["outcome"])["research"]


def needed(state: State, seat: str, tech: str) -> int:
    return max(0, tech_cost(state, seat, tech) - state["players"][seat]["research"].get(tech, 0))


def _needed_open(state: State, seat: str) -> dict[str, int]:
    """Technology -> markers still needed, for those ``seat`` may still put markers on."""
    p = state["players"][seat]
    have = p["research"]
    out = {}
    for t, cost in tech_costs(state, seat, [t for t in TECH_ORDER if t not in p["techs"]]).items():
        need = max(0, cost - have.get(t, 0))
        if need > 0:
            out[t] = need
    return out


def open_techs(state: State, seat: str) -> list[str]:
    """Technologies ``seat`` may still put markers on (SI-RES-08: never twice)."""
    return list(_needed_open(state, seat))


def left(state: State, seat: str) -> int:
    """Research markers ``seat`` still has to place this turn."""
    turn = state["turn"]
    if turn is not None and turn.get("left") is not None:
        return markers_left(state, 0)
    return markers_left(state, markers(state, seat))


def prompt(state: State, seat: str) -> dict[str, Any] | None:
    n = left(state, seat)
    needs = _needed_open(state, seat)
    tokens = new_technologies.token_places(state, seat)  # SU-TEC-07
    if n == 0 or not (needs or tokens):
        return None
    p: dict[str, Any] = {
        "type": "research",
        "markers": n,
        "needed": needs,
    }
    if tokens:
        p["token"] = tokens  # [region, Buyer index]: "token" in the action places it (1 marker)
    return p


def validate_place(state: State, seat: str, place: Any, total: int) -> dict[str, int]:
    require(isinstance(place, dict), "place must map Technologies to numbers of Progress markers")
    out: dict[str, int] = {}
    for key, value in place.items():
        tech = tech_id(key)
        n = as_int(value, f"markers on {key}", 0)
        if n == 0:
            continue
        require(tech not in state["players"][seat]["techs"], f"you already have {tech_name(state, tech)}")
        need = needed(state, seat, tech)
        require(n <= need, f"{tech_name(state, tech)} needs only {need} more Progress marker{'' if need == 1 else 's'}")
        out[tech] = n
    require(sum(out.values()) <= total, f"you have only {total} Progress marker{'' if total == 1 else 's'}")
    return out


def act(state: State, seat: str, action: dict[str, Any]) -> bool:
    """SI-RES-02: place markers as wished, Technology by Technology; the turn goes on
    while markers remain, an empty placement ends it and the unspent markers are lost.
    Returns whether the turn is over."""
    total = left(state, seat)
    token = action.get("token") is not None
    place = validate_place(state, seat, action.get("place"), total - (1 if token else 0))
    if token:  # SU-TEC-07: 1 Progress marker becomes the Marketing Token
        require(total >= 1, "the Marketing Token takes 1 Research Progress marker")
        new_technologies.place_token(state, seat, action.get("token"))
    p = state["players"][seat]
    for tech, n in place.items():
        p["research"][tech] = p["research"].get(tech, 0) + n
    spent = sum(place.values()) + (1 if token else 0)
    if place:
        say(state, f"{seat} researches " + ", ".join(f"{tech_name(state, t)} +{n}" for t, n in place.items()) + ".")
    complete(state, seat)
    return end_of_step(
        state,
        seat,
        total,
        spent,
        bool(place) or token,
        lambda: bool(open_techs(state, seat) or new_technologies.token_places(state, seat)),
        "unspent Progress marker(s)",
    )


def complete(state: State, seat: str) -> None:
    """SI-RES-03/07: a Technology whose markers reach its cost is researched, on the
    owner's own turn (also after another company's Patent made it cheaper)."""
    progress = True
    while progress:
        progress = False
        p = state["players"][seat]
        for tech in TECH_ORDER:
            if tech in p["techs"] or tech not in p["research"]:
                continue
            if p["research"][tech] >= tech_cost(state, seat, tech):
                technologies.gain(state, seat, tech)
                progress = True
