"""What a Phase 1 outcome gives a company this round (SI-PROD-01, SI-RES-01, SI-LOG-01,
SI-PRICE-02, SI-TECH-03/10/11/12, SI-STEVE-03/05, SU-TEC-05/10): price, Goods, Research
and Logistics markers, Improvement. The phases that spend them (production, research,
logistics, prices) and the planning (``planning.yields``) read this one sum.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.smartphone_inc import new_technologies
from engine.smartphone_inc.common import State, has_effect
from engine.smartphone_inc.data import START_PRICE, SYMBOLS


def yields(table: State, seat: str, outcome: dict[str, Any]) -> dict[str, Any]:
    """What a decision gives ``seat`` this round by the rules of Phases 2-6 and the
    company's Technologies: price, Goods (with their sources), Research and Logistics
    markers, Improvement or Goods token. ``table`` is a state or a view (same keys),
    so the planner and the pictures show exactly what the phases will do."""
    return yields_for(table, seat)(outcome)


def yields_for(table: State, seat: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """:func:`yields` for one seat as a function of the outcome: the company and its
    Technologies are read once (the planner evaluates thousands of outcomes)."""
    return _yields_for(table, seat, summary=False)


def summary_for(table: State, seat: str) -> Callable[[dict[str, Any]], tuple[int, int, bool, int, int]]:
    """(price, Goods, improve, Research, Logistics) of :func:`yields` for one seat as a
    function of the outcome, without the rest of it: the planner groups thousands of
    outcomes by what they give and builds the full yields of one per group."""
    return _yields_for(table, seat, summary=True)


def summary_of_ref(table: State, seat: str) -> Callable[[int], tuple[int, int, bool, int, int]]:
    """:func:`summary_for` of an outcome given by its packed ref (``decisions.effect_refs``:
    covered, a number face down, the 6 active counts), without building the outcome."""
    return _yields_for(table, seat, summary="ref")


def _yields_for(table: State, seat: str, summary: bool | str) -> Callable[[Any], Any]:
    p = table["players"][seat]
    tokens = int(p["tokens"])
    no_steve = not p["steve"]
    price_up = 1 if has_effect(table, seat, "price_up") else 0  # SI-PRICE-02, SI-TECH-10
    gps = has_effect(table, seat, "improve_gives_2_goods")  # SI-TECH-03
    li_ion = len(p["techs"]) // 2 if has_effect(table, seat, "goods_per_2_techs") else None  # SI-TECH-12
    patent_goods = 2 * len(p["patents"]) if has_effect(table, seat, "patent_goods") else None  # SU-TEC-05 (DATA.md)
    price_as_logistics = has_effect(table, seat, "price_as_logistics")  # SI-TECH-11
    blitz_logistics = new_technologies.blitz_markers(table, seat, "logistics")  # SU-TEC-10
    blitz_research = new_technologies.blitz_markers(table, seat, "research")
    steve_bonus = int(table["steve"].get("bonus", 0)) if p["steve"] and table.get("steve") else 0  # SI-STEVE-03

    def key(outcome: dict[str, Any]) -> tuple[int, int, bool, int, int]:  # the same sums as ``of``
        active = outcome["active"]
        get = active.get
        up, down, improve = int(get("up", 0)), int(get("down", 0)), int(get("improve", 0))
        goods = int(get("prod", 0)) + tokens
        if no_steve:
            fd = outcome["face_down"]
            goods += int(outcome["covered"]) + (fd if isinstance(fd, int) else len(fd)) + fixed_goods
            if gps:
                goods += 2 * improve
        logistics = int(get("logistics", 0)) + blitz_logistics + (up + down if price_as_logistics else 0)
        research = int(get("research", 0)) + blitz_research + steve_bonus
        return (max(1, START_PRICE + up - down + price_up), goods, improve > 0, research, logistics)

    fixed_goods = (li_ion or 0) + (patent_goods or 0)
    if summary == "ref":
        # the ref's layout (pads: covered, face down, then 6 bits per count in SYMBOLS order)
        if SYMBOLS != ("down", "up", "prod", "improve", "research", "logistics"):
            raise RuntimeError("summary_of_ref reads the counts in this order")
        price0 = START_PRICE + price_up
        goods0 = tokens + (fixed_goods if no_steve else 0)
        research0 = blitz_research + steve_bonus

        def ref_key(ref: int) -> tuple[int, int, bool, int, int]:  # the same sums as ``key``
            up, down = (ref >> 24) & 63, (ref >> 30) & 63
            improve = (ref >> 12) & 63
            goods = ((ref >> 18) & 63) + goods0
            if no_steve:
                goods += ((ref >> 42) & 63) + ((ref >> 36) & 63)
                if gps:
                    goods += 2 * improve
            logistics = (ref & 63) + blitz_logistics + (up + down if price_as_logistics else 0)
            price = price0 + up - down
            return (price if price > 1 else 1, goods, improve > 0, ((ref >> 6) & 63) + research0, logistics)

        return ref_key
    if summary:
        return key

    def of(outcome: dict[str, Any]) -> dict[str, Any]:
        active = outcome["active"]
        a = {k: int(active.get(k, 0)) for k in SYMBOLS}
        delta = a["up"] - a["down"] + price_up
        parts = [("Production", a["prod"]), ("Goods tokens", tokens)]  # SI-PROD-01, SI-PLAN-11
        if no_steve:  # SI-STEVE-05: Steve makes no Goods from covered cells
            fd = outcome["face_down"]  # the Improvements face down, or their number
            parts += [("covered cells", int(outcome["covered"])), ("face down", fd if isinstance(fd, int) else len(fd))]
            if gps:
                parts.append(("GPS", 2 * a["improve"]))
            if li_ion is not None:
                parts.append(("Li-Ion", li_ion))
            if patent_goods is not None:
                parts.append(("Patents", patent_goods))
        logistics = a["logistics"] + blitz_logistics  # SI-LOG-01
        if price_as_logistics:
            logistics += a["up"] + a["down"]
        return {
            "price_delta": delta,
            "price": max(1, START_PRICE + delta),
            "goods": sum(n for _, n in parts),
            "goods_parts": [[k, n] for k, n in parts if n],
            "research": a["research"] + blitz_research + steve_bonus,  # SI-RES-01
            "logistics": logistics,
            "improve": a["improve"] > 0,
        }

    return of
