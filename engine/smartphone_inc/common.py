"""Small helpers shared by the phase modules: players, Offices, costs, the log."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from engine.errors import IllegalAction
from engine.smartphone_inc.data import (
    REGIONS,
    RETAILERS,
    TECH_COSTS,
    TECH_EFFECTS,
    TECH_ORDER,
    TECHS,
    tech_effect,
    tech_side,
)

State = dict[str, Any]


def say(state: State, text: str) -> None:
    state["log"].append(text)


def markers_left(state: State, full: int) -> int:
    """Markers still to place in a turn that goes step by step (``full`` before its first step)."""
    turn = state["turn"]
    if turn is not None and turn.get("left") is not None:
        return int(turn["left"])
    return full


def end_of_step(
    state: State, seat: str, total: int, spent: int, placed: bool, more: Callable[[], bool], lost: str
) -> bool:
    """Book a step of a Research or Logistics turn; return whether the turn is over: it
    goes on while markers remain and ``more()`` says they can go somewhere; an empty
    step ends it, and the markers left are lost ("loses N {lost}")."""
    rest = total - spent
    state["turn"]["left"] = rest
    if rest and placed and more():
        return False
    if rest:
        say(state, f"{seat} loses {rest} {lost}.")
    return True


_MARKERS = re.compile(r"\b(\d+) ((?:[A-Za-z]+ ){0,3})marker\(s\)")


OPEN_HALF = "blank half"  # an Improvement's half with no symbol (improvements.json: null): it covers a cell, gives nothing


def plural_markers(line: str) -> str:
    """A log line as players read it: "loses 1 Progress marker(s)" -> "loses 1 Progress
    marker" (2: "markers"), "Improvement (Logistics + open)" -> "Improvement (Logistics +
    blank half)". The log keeps its old wording (old games replay to the same bytes)."""
    line = line.replace(" + open)", f" + {OPEN_HALF})").replace("(open + ", f"({OPEN_HALF} + ")
    return _MARKERS.sub(lambda m: f"{m.group(1)} {m.group(2)}marker{'' if m.group(1) == '1' else 's'}", line)


def goods_on(state: State, seat: str, rid: str) -> int:
    """Goods ``seat`` sold in ``rid`` this round: one per Buyer, plus the second Goods
    of the Gamepad Patent Technology (Update 1.1, ``state["seconds"]``)."""
    sold = state["regions"][rid]["sold"]
    n = sold.count(seat)
    seconds = state.get("seconds")
    if seconds and rid in seconds:
        n += sum(1 for i in seconds[rid] if sold[i] == seat)
    return n


def is_steve(state: State, seat: str) -> bool:
    return bool(state["players"][seat]["steve"])


def has_effect(state: State, seat: str, effect: str) -> bool:
    """True if ``seat`` has researched the Technology whose side in play gives ``effect``."""
    p = state["players"][seat]
    if p["steve"]:
        return False  # Steve uses no Technology bonuses (SI-STEVE-11)
    techs = state["techs"]
    for tech in p["techs"]:
        side = techs[tech]["side"]
        got = TECH_EFFECTS.get((tech, side))
        if (got if got is not None else tech_effect(tech, side)) == effect:
            return True
    return False


def in_play(state: State, tech: str) -> dict[str, Any]:
    """Name, cost, Patent VP, text and effect of the Technology on ``tech``'s space."""
    return tech_side(tech, state["techs"][tech]["side"])


def tech_name(state: State, tech: str) -> str:
    return str(in_play(state, tech)["name"])


def patent_vp(state: State, tech: str) -> int:
    return int(in_play(state, tech)["patent_vp"])


def tech_cost(state: State, seat: str, tech: str) -> int:
    """Progress markers ``seat`` needs for ``tech`` now (SI-RES-06, SI-TECH-07)."""
    return _cost(state["techs"][tech], tech, 1 if has_effect(state, seat, "research_discount") else 0)


def tech_costs(state: State, seat: str, techs: Iterable[str] = TECH_ORDER) -> dict[str, int]:
    """:func:`tech_cost` of each of ``techs`` for ``seat`` (its Technologies read once)."""
    discount = 1 if has_effect(state, seat, "research_discount") else 0
    space = state["techs"]
    return {t: _cost(space[t], t, discount) for t in techs}


def full_costs(state: State) -> dict[str, int]:
    """Each Technology's cost before a company's own discount (``tech_cost`` is this,
    less 1 with the research discount, at least 1): read once for every company."""
    space = state["techs"]
    return {t: _cost(space[t], t, 0) for t in TECH_ORDER}


def costs_for(state: State, seat: str, full: dict[str, int]) -> dict[str, int]:
    """:func:`tech_cost` of the Technologies ``seat`` has not researched, in board order,
    from :func:`full_costs`."""
    techs = state["players"][seat]["techs"]
    if has_effect(state, seat, "research_discount"):
        return {t: max(c - 1, 1) for t, c in full.items() if t not in techs}
    return {t: c for t, c in full.items() if t not in techs}


def _cost(space: dict[str, Any], tech: str, discount: int) -> int:
    side = space["side"]
    cost = TECH_COSTS.get((tech, side))
    if cost is None:
        cost = int(tech_side(tech, side)["cost"])
    if space["patent"] is None:
        cost += 1
    return max(cost - discount, 1)


def region_capacity(state: State, rid: str) -> int:
    ret = state["regions"][rid]["retailer"]
    if ret is not None:
        return len(RETAILERS[ret["id"]]["sides"][ret["side"]]["vp"])
    return len(REGIONS[rid]["spaces"])


def offices_used(state: State, seat: str) -> int:
    on_map = sum(state["regions"][r]["offices"].count(seat) for r in state["regions"])
    return on_map + len(state["players"][seat]["techs"])


def can_found_office(state: State, seat: str, rid: str) -> str | None:
    """Why ``seat`` cannot put an Office in ``rid`` (None if it can)."""
    reg = state["regions"][rid]
    if seat in reg["offices"]:
        return f"you already have an Office in {REGIONS[rid]['name']}"
    if len(reg["offices"]) >= region_capacity(state, rid):
        return f"{REGIONS[rid]['name']} has no empty Office space"
    if offices_used(state, seat) >= state["office_markers"]:
        return "you have no Office markers left"
    return None


def linked_to_office(state: State, seat: str, rid: str) -> bool:
    return any(seat in state["regions"][r]["offices"] for r in REGIONS[rid]["links"])


def add_goods(state: State, seat: str, n: int) -> int:
    """Move up to ``n`` Goods from supply to Available Goods; return how many moved."""
    p = state["players"][seat]
    n = max(0, min(n, p["supply"]))
    p["supply"] -= n
    p["goods"] += n
    return n


def region_id(value: Any, state: State | None = None) -> str:
    """A region of the game's board (of either board without ``state``)."""
    if not isinstance(value, str) or value not in (REGIONS if state is None else state["regions"]):
        raise IllegalAction(f"unknown region {value!r}")
    return value


def tech_id(value: Any) -> str:
    if not isinstance(value, str) or value not in TECHS:
        raise IllegalAction(f"unknown Technology {value!r}")
    return value
