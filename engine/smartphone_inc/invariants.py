"""What must hold in every Smartphone Inc. state, with or without the Update 1.1 modules
(used by random games: ``python -m engine simulate --mix`` and the tests)."""

from __future__ import annotations

from engine.smartphone_inc.common import State, goods_on, offices_used, region_capacity
from engine.smartphone_inc.data import GOODS_SUPPLY, OFFICE_MARKERS, ROUNDS


class Broken(RuntimeError):
    """An invariant does not hold."""


def _need(cond: bool, what: str) -> None:
    if not cond:
        raise Broken(what)


def check(state: State) -> None:
    regions = state["regions"]
    for rid, reg in regions.items():
        _need(len(reg["offices"]) <= region_capacity(state, rid), f"{rid}: too many Offices")
        for seat in set(reg["offices"]):
            n = reg["offices"].count(seat)
            _need(n <= 2 and (n == 1 or reg["retailer"] is None), f"{rid}: {n} Offices of {seat}")
    retailers = [reg["retailer"]["id"] for reg in regions.values() if reg["retailer"]]
    _need(len(retailers) == len(set(retailers)), "a Retailer is on the map twice")
    for seat, p in state["players"].items():
        on_board = sum(goods_on(state, seat, r) for r in regions)
        blitz = sum((p.get("blitz") or {}).values())
        _need(p["supply"] + p["goods"] + on_board + blitz == GOODS_SUPPLY, f"{seat}: Goods markers not conserved")
        _need(p["supply"] >= 0 and p["goods"] >= 0 and p["price"] >= 1, f"{seat}: negative Goods or price")
        _need(len(set(p["techs"])) == len(p["techs"]), f"{seat}: a Technology twice")
        _need(offices_used(state, seat) <= OFFICE_MARKERS, f"{seat}: too many Office markers")
        if not state["options"].get("hardcore") and state["phase"] != "start":
            _need(p["vp"] >= 0, f"{seat}: negative VP outside Hardcore")
    patents = sorted(t for t, v in state["techs"].items() if v["patent"])
    _need(patents == sorted(t for p in state["players"].values() for t in p["patents"]), "Patents disagree")
    owned = [i for p in state["players"].values() for i in p["improvements"] if not i.startswith("S-")]
    _need(len(owned) == len(set(owned)), "an Improvement owned twice")
    _need(not set(owned) & set(state["block"] + state["pile"] + (state.get("mini_upgrades") or [])), "an Improvement in two places")
    if state.get("ceo") is not None:
        _need(all(r in regions for r in state["ceo"].values()), "a CEO off the board")
    for rid, tokens in (state.get("marketing") or {}).items():
        _need(rid in regions and len(set(tokens.values())) == len(tokens), f"{rid}: two Tokens of one company")
    for rid, idx in (state.get("seconds") or {}).items():
        _need(all(regions[rid]["sold"][i] is not None for i in idx), f"{rid}: a second Goods without a first")
    if state.get("directives") is not None:
        cards = state["directives"]["cards"]
        for seat in state["seats"]:
            mine = [c for c in cards if c["holder"] == seat]
            rounds = [c["round"] for c in mine]
            _need(len(rounds) == len(set(rounds)) and len(mine) <= ROUNDS, f"{seat}: two Directives in one round")
        _need(all(c["flipped"] == (c["holder"] is not None and (c["round"] < state["round"] or state["phase"] == "over")) for c in cards if c["holder"]), "a Directive not flipped at the end of its round")
