"""Technologies: gaining one and its immediate bonuses (SI-TECH-01..14, SI-RES-05).

Permanent bonuses are read where they act (``common.has_effect``): production,
prices, research costs, logistics, selling. This module handles the moment a
Technology is researched: the Office marker on the card, the Patent for the first
company, and the bonuses marked immediate. "A player must use all Technology
bonuses if they can" (SI-TECH-01): immediate bonuses are applied, not offered.
"""

from __future__ import annotations

from engine.smartphone_inc import hardcore, new_technologies
from engine.smartphone_inc.common import (
    State,
    add_goods,
    can_found_office,
    is_steve,
    patent_vp,
    say,
    tech_name,
)
from engine.smartphone_inc.data import REGIONS, tech_effect


def gain(state: State, seat: str, tech: str) -> None:
    p = state["players"][seat]
    p["techs"].append(tech)
    p["research"].pop(tech, None)
    t = state["techs"][tech]
    label = tech_name(state, tech)
    if t["patent"] is None:  # SI-RES-05: the first to research it takes the Patent
        t["patent"] = seat
        p["patents"].append(tech)
        say(state, f"{seat} researched {label} and takes its Patent ({patent_vp(state, tech)} VP at the end).")
        hardcore.patent_now(state, seat, tech)
    else:
        say(state, f"{seat} researched {label}.")
    if is_steve(state, seat):
        return  # SI-STEVE-11: no bonuses for Steve
    effect = tech_effect(tech, t["side"])
    if effect == "produce_5":  # SI-TECH-04
        n = add_goods(state, seat, 5)
        say(state, f"{seat} produces {n} Goods at once (GPS).")
    elif effect == "price_up":  # SI-TECH-10
        p["price"] += 1
        say(state, f"{seat} raises their price to {p['price']} (NFC).")
    elif effect == "goods_per_2_techs":  # SI-TECH-12
        n = add_goods(state, seat, len(p["techs"]) // 2)
        say(state, f"{seat} produces {n} Goods at once (Li-Ion).")
    elif effect == "small_region_office":  # SI-TECH-08
        if small_region_choices(state, seat):
            state["queue"].append({"seat": seat, "kind": "gamepad_office"})
    else:
        new_technologies.on_gain(state, seat, effect)  # Update 1.1 (SU-TEC-05/06/11)


def small_region_choices(state: State, seat: str) -> list[str]:
    return [
        r
        for r in state["regions"]
        if REGIONS[r]["size"] == "S" and can_found_office(state, seat, r) is None
    ]
