"""The New Technologies module of Update 1.1 (option ``technologies``, SU-TEC-01..12).

The 10 New Technologies sit on the symbol spaces of the board like the base ones
(sides 2 and 3 of a symbol, ``technologies.json``); ``common.has_effect`` tells
whether a company has one. This module holds what they add: CEO figures
(``state["ceo"]``: region per seat), Marketing Tokens (``state["marketing"]``:
region -> {Buyer index: seat}), Mini-upgrades (``state["mini_upgrades"]``: the
tokens left), Blitz Goods on the Pads (``players[seat]["blitz"]``), and the bonuses
of Phases 3, 5, 6, 7 and 8. Every function is a no-op in games without them.
Readings: DATA.md, "Update 1.1: New Technologies".
"""

from __future__ import annotations

from typing import Any

from engine.errors import as_int, require
from engine.smartphone_inc import hardcore
from engine.smartphone_inc.common import State, add_goods, goods_on, has_effect, region_id, say
from engine.smartphone_inc.data import (
    HOME,
    IMPROVEMENTS,
    MINI_UPGRADES,
    REGIONS,
    RETAILERS,
    SYMBOL_NAMES,
    improvement_name,
    tech_effect,
)

CEO_EFFECTS = ("ceo_sales", "ceo_any_buyer")


def effects_in_play(state: State) -> set[str]:
    return {tech_effect(t, v["side"]) for t, v in state["techs"].items()}


def setup(state: State) -> None:
    """SU-TEC-01: a CEO in each starting region when a CEO Technology is in play;
    the Mini-upgrade tokens when Blitz Li-Ion is."""
    effects = effects_in_play(state)
    if effects & set(CEO_EFFECTS):
        state["ceo"] = {s: start_region(state, s) for s in state["seats"]}
    if "mini_upgrade" in effects:
        state["mini_upgrades"] = list(MINI_UPGRADES)
    if "marketing_token" in effects:
        state["marketing"] = {}
    if "patent_second_goods" in effects:
        state["seconds"] = {}


def start_region(state: State, seat: str) -> str:
    p = state["players"][seat]
    return str(p["home"]) if "home" in p else HOME[p["colour"]]  # the 2-3 player board: chosen


# --- on gaining a Technology ----------------------------------------------------------------


def on_gain(state: State, seat: str, effect: str) -> None:
    """The immediate bonuses (red dot) of the New Technologies."""
    p = state["players"][seat]
    if effect == "patent_goods":  # SU-TEC-05: at once, 2 per Patent
        n = add_goods(state, seat, 2 * len(p["patents"]))
        say(state, f"{seat} produces {n} Goods at once (2 per Patent).")
    elif effect == "mini_upgrade":  # SU-TEC-11
        if state.get("mini_upgrades"):
            state["queue"].append({"seat": seat, "kind": "mini_upgrade"})
    elif effect == "place_retailer":  # SU-TEC-06
        if retailer_regions(state, seat) and unused_retailers(state):
            state["queue"].append({"seat": seat, "kind": "place_retailer"})


# --- Mini-upgrades (SU-TEC-11) ----------------------------------------------------------------


def mini_upgrade_prompt(state: State, seat: str) -> dict[str, Any] | None:
    left = list(state.get("mini_upgrades") or [])
    if not left:
        return None
    p: dict[str, Any] = {"type": "mini_upgrade", "choices": {m: list(IMPROVEMENTS[m]) for m in left}}
    if len(left) == 1:
        p["forced"] = {"type": "mini_upgrade", "id": left[0]}
    return p


def mini_upgrade_act(state: State, seat: str, action: dict[str, Any]) -> None:
    mid = action.get("id")
    require(isinstance(mid, str) and mid in (state.get("mini_upgrades") or []), "choose one of the Mini-upgrades left")
    state["mini_upgrades"].remove(mid)
    state["players"][seat]["improvements"].append(mid)
    say(state, f"{seat} takes {improvement_name(mid)}; it is used in Planning like an Improvement.")


def face_down_goods(face_down: list[str]) -> list[str]:
    """The face-down Improvements that make Goods: a Mini-upgrade makes none."""
    return [i for i in face_down if i not in MINI_UPGRADES]


# --- 4G World: placing a Retailer (SU-TEC-06) -------------------------------------------------


def unused_retailers(state: State) -> list[str]:
    used = {reg["retailer"]["id"] for reg in state["regions"].values() if reg["retailer"] is not None}
    return [r for r in sorted(RETAILERS) if r not in used]


def retailer_regions(state: State, seat: str) -> list[str]:
    """Regions with ``seat``'s Office, no Retailer, and an unused Retailer of their size."""
    sizes = {RETAILERS[r]["size"] for r in unused_retailers(state)}
    return [
        r
        for r, reg in state["regions"].items()
        if seat in reg["offices"] and reg["retailer"] is None and REGIONS[r]["size"] in sizes
    ]


def place_retailer_prompt(state: State, seat: str) -> dict[str, Any] | None:
    regions = retailer_regions(state, seat)
    if not regions:
        return None
    unused = unused_retailers(state)
    return {
        "type": "place_retailer",
        "regions": {r: [x for x in unused if RETAILERS[x]["size"] == REGIONS[r]["size"]] for r in regions},
        "sides": {x: [{"vp": s["vp"], "bonus": s["bonus"]} for s in RETAILERS[x]["sides"]] for x in unused},
    }


def place_retailer_act(state: State, seat: str, action: dict[str, Any]) -> None:
    prompt = place_retailer_prompt(state, seat)
    require(prompt is not None, "there is nowhere to place a Retailer")
    rid = region_id(action.get("region"), state)
    require(rid in prompt["regions"], f"you cannot place a Retailer in {REGIONS[rid]['name']}")
    ret = action.get("retailer")
    require(ret in prompt["regions"][rid], "choose an unused Retailer of the region's size")
    side = as_int(action.get("side"), "side", 0, 1)
    reg = state["regions"][rid]
    kept: list[str] = []
    for s in reg["offices"]:  # second Offices go back; the others shift left
        if s not in kept:
            kept.append(s)
    spaces = len(RETAILERS[ret]["sides"][side]["vp"])
    reg["offices"] = kept[:spaces]
    reg["retailer"] = {"id": ret, "side": side}
    say(state, f"{seat} places a Retailer in {REGIONS[rid]['name']}; the Offices there move onto it (4G).")
    if hardcore.on(state):  # SU-HC-06: each Office is now on a Retailer space
        offices = reg["offices"]
        for i, s in enumerate(offices):
            reg["offices"] = offices[: i + 1]
            hardcore.office_placed(state, s, rid)
        reg["offices"] = offices
    if RETAILERS[ret]["sides"][side]["bonus"]["kind"] != "none":
        state["queue"].insert(0, {"seat": seat, "kind": "retailer_bonus", "region": rid})


# --- Blitz Wi-Fi: Goods on the Pads as Progress markers (SU-TEC-10) ---------------------------


def after_production(state: State) -> None:
    for seat in state["seats"]:
        if blitz_prompt(state, seat) is not None:
            state["queue"].append({"seat": seat, "kind": "blitz"})


def blitz_prompt(state: State, seat: str) -> dict[str, Any] | None:
    p = state["players"][seat]
    if not has_effect(state, seat, "blitz_progress") or p["goods"] == 0 or p.get("blitz"):
        return None
    active = p["outcome"]["active"]
    kinds = [k for k in ("research", "logistics") if active.get(k, 0) > 0]
    if not kinds:
        return None
    return {"type": "blitz", "goods": p["goods"], "symbols": kinds}


def blitz_act(state: State, seat: str, action: dict[str, Any]) -> None:
    prompt = blitz_prompt(state, seat)
    require(prompt is not None, "you cannot place Goods on your Pads now")
    put = {k: as_int(action.get(k, 0), k, 0, 1) for k in ("research", "logistics")}
    for k, n in put.items():
        require(n == 0 or k in prompt["symbols"], f"you have no active {SYMBOL_NAMES[k]} symbol to put Goods on")
    total = sum(put.values())
    require(total <= prompt["goods"], f"you have only {prompt['goods']} Goods")
    p = state["players"][seat]
    p["goods"] -= total
    p["blitz"] = put
    if total:
        say(state, f"{seat} puts {total} Goods on its Pads as Progress markers (Blitz).")


def blitz_markers(table: State, seat: str, kind: str) -> int:
    return int((table["players"][seat].get("blitz") or {}).get(kind, 0))


def reset_round(state: State) -> None:
    """Blitz Goods go back to the supply at the end of the round."""
    for seat in state["seats"]:
        p = state["players"][seat]
        if "blitz" in p:
            p["supply"] += sum(p.pop("blitz").values())


# --- CEO (SU-TEC-01..03) -----------------------------------------------------------------------


def ceo_on(state: State) -> bool:
    return state.get("ceo") is not None


def move_ceo(state: State, seat: str, value: Any) -> None:
    """SU-TEC-01: 1 Logistics Progress marker moves the CEO to any region."""
    require(ceo_on(state), "there are no CEOs in this game")
    rid = region_id(value, state)
    require(rid != state["ceo"][seat], f"your CEO is already in {REGIONS[rid]['name']}")
    state["ceo"][seat] = rid
    say(state, f"{seat} moves its CEO to {REGIONS[rid]['name']}.")


def ceo_region(state: State, seat: str) -> str | None:
    """The region with ``seat``'s CEO and one of its Offices (None if none)."""
    if not ceo_on(state):
        return None
    rid = state["ceo"].get(seat)
    return rid if rid is not None and seat in state["regions"][rid]["offices"] else None


def ignores_requirements(state: State, seat: str, rid: str) -> bool:
    """SU-TEC-03: in Phase 7, the region with the Office and CEO buys whatever is asked."""
    return state["phase"] == "selling" and has_effect(state, seat, "ceo_any_buyer") and ceo_region(state, seat) == rid


# --- Marketing Tokens (SU-TEC-07) --------------------------------------------------------------


def token_owner(state: State, rid: str, index: int) -> str | None:
    m = state.get("marketing")
    if not m or rid not in m:
        return None
    return m[rid].get(str(index))


def token_places(state: State, seat: str) -> list[list[Any]]:
    """[region, Buyer index] where ``seat`` may put its Marketing Token this round."""
    p = state["players"][seat]
    if not has_effect(state, seat, "marketing_token") or p.get("token_round") == state["round"]:
        return []
    out: list[list[Any]] = []
    m = state.get("marketing") or {}
    for rid, reg in state["regions"].items():
        if seat not in reg["offices"] or reg["retailer"] is not None:
            continue
        tokens = m.get(rid, {})
        if seat in tokens.values():
            continue
        empty = [i for i in range(len(REGIONS[rid]["buyers"])) if str(i) not in tokens and reg["sold"][i] is None]
        for i in sorted({empty[0], empty[-1]} if empty else set()):
            out.append([rid, i])
    return out


def place_token(state: State, seat: str, value: Any) -> None:
    require(isinstance(value, list | tuple) and len(value) == 2, "token is [region, Buyer number]")
    rid, index = region_id(value[0], state), as_int(value[1], "Buyer", 0)
    require([rid, index] in token_places(state, seat), "your Marketing Token goes on the leftmost or rightmost empty Buyer of a region with your Office and no Token of yours, once per round")
    state["marketing"].setdefault(rid, {})[str(index)] = seat
    state["players"][seat]["token_round"] = state["round"]
    say(state, f"{seat} puts its Marketing Token on Buyer {index + 1} in {REGIONS[rid]['name']}.")


# --- Phase 8: Spatial benefit (SU-TEC-08/09) ----------------------------------------------------


def phase_8(state: State, seat: str, controlled: int) -> int:
    """The VP of Spatial (VP) and the Goods of Spatial (Goods); returns the VP."""
    vp = 0
    if has_effect(state, seat, "spatial_vp"):  # SU-TEC-08: the best region (DATA.md)
        counts = {r: goods_on(state, seat, r) for r in state["regions"]}  # bonus Goods included
        best = max(counts, key=lambda r: (counts[r], -list(state["regions"]).index(r)))
        if counts[best]:
            vp = 2 * counts[best]
            say(state, f"{seat} scores +{vp} VP for {counts[best]} Goods sold in {REGIONS[best]['name']} (Spatial).")
    if has_effect(state, seat, "spatial_goods") and controlled:  # SU-TEC-09
        n = add_goods(state, seat, controlled)
        say(state, f"{seat} produces {n} Goods for the next round ({controlled} region(s) controlled).")
    return vp



# --- Gamepad Patent: a second Goods to a Buyer of a patented Technology (SU-TEC-04) -------------


def second_places(state: State, seat: str) -> dict[str, list[int]]:
    """Buyers ``seat`` sold to this round that want a Technology whose Patent it holds and
    hold no second Goods yet, by region."""
    if not has_effect(state, seat, "patent_second_goods"):
        return {}
    patents = set(state["players"][seat]["patents"])
    seconds = state.get("seconds") or {}
    out: dict[str, list[int]] = {}
    for rid, reg in state["regions"].items():
        idx = [
            i
            for i, b in enumerate(REGIONS[rid]["buyers"])
            if reg["sold"][i] == seat and b.get("tech") in patents and i not in seconds.get(rid, [])
        ]
        if idx:
            out[rid] = idx
    return out


def second_prompt(state: State, seat: str) -> dict[str, Any] | None:
    goods = state["players"][seat]["goods"]
    places = second_places(state, seat)
    if not goods or not places:
        return None
    return {"type": "second_sell", "goods": goods, "regions": {r: len(i) for r, i in places.items()}}


def second_act(state: State, seat: str, action: dict[str, Any]) -> None:
    places = second_places(state, seat)
    regions = action.get("regions", {})
    require(isinstance(regions, dict), "regions maps regions to numbers of second Goods")
    plan = []
    for key, value in regions.items():
        rid = region_id(key, state)
        n = as_int(value, f"second Goods for {key}", 0, len(places.get(rid, [])))
        if n:
            plan.append((rid, n))
    goods = state["players"][seat]["goods"]
    require(sum(n for _, n in plan) <= goods, f"you have only {goods} Goods")
    for rid, n in plan:
        state["seconds"].setdefault(rid, []).extend(places[rid][:n])
        state["players"][seat]["goods"] -= n
        say(state, f"{seat} sells {n} second Goods in {REGIONS[rid]['name']} (Patent).")
