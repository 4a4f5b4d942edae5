"""Phase 7. Selling Goods (SI-SELL-01..07, SI-TECH-14, SI-RET-01).

A Goods is placed on the leftmost free Buyer of a region who is willing to buy it;
a willing Buyer cannot be skipped. A company must sell as many Goods as it can
(DATA.md: decisions); when there is more than one way to do so, it chooses how
many go to each region.
"""

from __future__ import annotations

from typing import Any

from engine.errors import as_int, require
from engine.smartphone_inc import new_technologies
from engine.smartphone_inc.common import State, has_effect, region_id, say
from engine.smartphone_inc.data import REGIONS


def willing(state: State, seat: str, buyer: dict[str, Any]) -> bool:
    """SI-SELL-03/04 (and the mixed Buyers of the 2-3 player board: either demand)."""
    p = state["players"][seat]
    ok = False
    if "price" in buyer:
        ok = p["price"] <= buyer["price"]
    if "tech" in buyer:
        ok = ok or buyer["tech"] in p["techs"]
    return ok


def free_willing(state: State, seat: str, rid: str) -> list[int]:
    """Indexes of free Buyers in ``rid`` willing to buy from ``seat``, left to right.
    Update 1.1: a Buyer under a Marketing Token buys only from its owner, whatever it
    wants (SU-TEC-07), unless the Gamepad CEO lets a company ignore requirements in
    its CEO's region (SU-TEC-03)."""
    reg = state["regions"][rid]
    if reg["retailer"] is not None:
        return []  # SI-RET-01
    tokens = state.get("marketing")
    anyone = new_technologies.ignores_requirements(state, seat, rid) if "ceo" in state else False
    out = []
    for i, b in enumerate(REGIONS[rid]["buyers"]):
        if reg["sold"][i] is not None:
            continue
        owner = new_technologies.token_owner(state, rid, i) if tokens else None
        if anyone or owner == seat or (owner is None and willing(state, seat, b)):
            out.append(i)
    return out


def sellable_at(table: State, seat: str, price: int) -> int:
    """About how many Goods ``seat`` could sell this round at ``price``: the free Buyers
    willing to buy at that price (or for a Technology it has) in the regions where it
    has an Office, plus one per other region with 4G. ``table`` is a state or a view.
    An estimate for the planner: it ignores the Offices still to be founded this round
    and the companies that sell first (Priority)."""
    p = dict(table["players"][seat], price=int(price))
    four_g = has_effect(table, seat, "sell_without_office")
    total = 0
    for rid, reg in table["regions"].items():
        if reg.get("retailer") is not None:
            continue  # SI-RET-01
        free = [
            b for i, b in enumerate(REGIONS[rid]["buyers"]) if reg["sold"][i] is None and _willing_at(p, b)
        ]
        if seat in reg["offices"]:
            total += len(free)
        elif four_g and free:  # SI-TECH-14
            total += 1
    return total


def _willing_at(p: dict[str, Any], buyer: dict[str, Any]) -> bool:
    ok = "price" in buyer and p["price"] <= buyer["price"]
    return ok or ("tech" in buyer and buyer["tech"] in p["techs"])


def capacities(state: State, seat: str) -> tuple[dict[str, int], dict[str, int]]:
    """(regions with an Office -> Buyers available, regions without -> 1 via 4G)."""
    main: dict[str, int] = {}
    extra: dict[str, int] = {}
    four_g = has_effect(state, seat, "sell_without_office")
    for rid, reg in state["regions"].items():
        here = seat in reg["offices"]
        if not (here or four_g):
            continue  # (nothing to sell there)
        n = len(free_willing(state, seat, rid))
        if n == 0:
            continue
        if here:
            main[rid] = n
        else:  # SI-TECH-14
            extra[rid] = 1
    return main, extra


def max_sale(state: State, seat: str) -> int:
    main, extra = capacities(state, seat)
    return min(state["players"][seat]["goods"], sum(main.values()) + sum(extra.values()))


def prompt(state: State, seat: str) -> dict[str, Any] | None:
    """Where ``seat`` may still sell; None when it cannot sell more. A company sells
    as many Goods as it can, region by region (DATA.md); when every Goods left can
    only go one way, the sale is made without asking."""
    main, extra = capacities(state, seat)
    target = min(state["players"][seat]["goods"], sum(main.values()) + sum(extra.values()))  # max_sale
    if target == 0:
        return None
    prompt_: dict[str, Any] = {
        "type": "sell",
        "goods": state["players"][seat]["goods"],
        "sell": target,
        "regions": main,
        "extra": extra,
    }
    if sum(main.values()) + sum(extra.values()) <= target:  # everything sellable is sold
        prompt_["forced"] = {"type": "sell", "regions": dict(main), "extra": dict(extra)}
    elif len(main) + len(extra) == 1:  # one region only
        rid = next(iter(main or extra))
        key = "regions" if rid in main else "extra"
        prompt_["forced"] = {"type": "sell", key: {rid: target}}
    return prompt_


def options(state: State, seat: str) -> list[dict[str, Any]]:
    """One sale per region and number of Goods (then the turn goes on)."""
    goods = state["players"][seat]["goods"]
    main, extra = capacities(state, seat)
    out = [
        {"type": "sell", "regions": {rid: n}}
        for rid in sorted(main)
        for n in range(min(main[rid], goods), 0, -1)
    ]
    out += [{"type": "sell", "extra": {rid: 1}} for rid in sorted(extra)]
    return out


def place(state: State, seat: str, rid: str, n: int) -> int:
    """Put ``n`` Goods on the leftmost willing free Buyers of ``rid``; return how many."""
    idx = free_willing(state, seat, rid)[:n]
    for i in idx:
        state["regions"][rid]["sold"][i] = seat
    state["players"][seat]["goods"] -= len(idx)
    return len(idx)


def act(state: State, seat: str, action: dict[str, Any]) -> bool:
    """Sell in the regions given (SI-SELL-02..06); returns whether the turn is over (no
    Goods left, or none that anybody here would buy)."""
    main, extra = capacities(state, seat)
    regions = action.get("regions", {})
    more = action.get("extra", {})
    require(isinstance(regions, dict) and isinstance(more, dict), "regions and extra map regions to numbers of Goods")
    plan: list[tuple[str, int]] = []
    for key, value in regions.items():
        rid = region_id(key, state)
        n = as_int(value, f"Goods for {key}", 0)
        require(rid in main or n == 0, f"you cannot sell in {REGIONS[rid]['name']}")
        require(n <= main.get(rid, 0), f"only {main.get(rid, 0)} Buyer(s) in {REGIONS[rid]['name']} will buy from you")
        if n:
            plan.append((rid, n))
    for key, value in more.items():
        rid = region_id(key, state)
        n = as_int(value, f"4G Goods for {key}", 0, 1)
        require(rid in extra or n == 0, f"4G cannot sell in {REGIONS[rid]['name']}")
        if n:
            plan.append((rid, n))
    total = sum(n for _, n in plan)
    goods = state["players"][seat]["goods"]
    require(total > 0, "choose where to sell: you must sell while you can")
    require(total <= goods, f"you have only {goods} Goods")
    for rid, n in plan:
        placed = place(state, seat, rid, n)
        say(state, f"{seat} sells {placed} Goods in {REGIONS[rid]['name']}.")
    if max_sale(state, seat):
        return False
    left = state["players"][seat]["goods"]
    if left:
        say(state, f"{seat} cannot sell {left} Goods.")
    return True


def ceo_sell_prompt(state: State, seat: str) -> dict[str, Any] | None:
    """SU-TEC-02: at the end of the Logistics turn, sell in the CEO's region."""
    if not has_effect(state, seat, "ceo_sales"):
        return None
    rid = new_technologies.ceo_region(state, seat)
    goods = state["players"][seat]["goods"]
    if rid is None or goods == 0:
        return None
    n = min(goods, len(free_willing(state, seat, rid)))
    if n == 0:
        return None
    return {"type": "ceo_sell", "region": rid, "max": n, "price": state["players"][seat]["price"]}


def ceo_sell_act(state: State, seat: str, action: dict[str, Any]) -> None:
    prompt = ceo_sell_prompt(state, seat)
    require(prompt is not None, "you cannot sell with your CEO now")
    n = as_int(action.get("sell"), "sell", 0, prompt["max"])
    if n:
        placed = place(state, seat, prompt["region"], n)
        say(state, f"{seat} sells {placed} Goods in {REGIONS[prompt['region']]['name']} (CEO).")


def discard_unsold(state: State) -> None:
    """SI-SELL-07: unsold Goods are lost, except with Wi-Fi (SI-TECH-06)."""
    for seat in state["seats"]:
        p = state["players"][seat]
        if p["goods"] and not has_effect(state, seat, "keep_unsold"):
            p["supply"] += p["goods"]
            p["goods"] = 0

