"""Phase 6. Logistics (SI-LOG-01..07), with the Phase-6 bonuses of Wi-Fi and NFC."""

from __future__ import annotations

from typing import Any

from engine.errors import as_int, require
from engine.smartphone_inc import hardcore, new_technologies
from engine.smartphone_inc.common import (
    State,
    can_found_office,
    end_of_step,
    has_effect,
    is_steve,
    linked_to_office,
    markers_left,
    region_capacity,
    region_id,
    say,
)
from engine.smartphone_inc.data import REGIONS, RETAILERS
from engine.smartphone_inc.outcome_yields import yields


def markers(state: State, seat: str) -> int:
    """SI-LOG-01 (+ SI-TECH-11: Li-Ion counts Price symbols as Logistics)."""
    return yields(state, seat, state["players"][seat]["outcome"])["logistics"]


def found_office(state: State, seat: str, rid: str, *, bonus: bool = True) -> None:
    """Place an Office on the leftmost empty space (SI-LOG-04, SI-RET-02)."""
    reg = state["regions"][rid]
    reg["offices"].append(seat)
    state["players"][seat]["logistics"].pop(rid, None)
    where = "on the Retailer in " if reg["retailer"] else "in "
    say(state, f"{seat} opens an Office {where}{REGIONS[rid]['name']}.")
    hardcore.office_placed(state, seat, rid)
    ret = reg["retailer"]
    if ret is not None and bonus and not is_steve(state, seat):
        kind = RETAILERS[ret["id"]]["sides"][ret["side"]]["bonus"]["kind"]
        if kind != "none":  # SI-RET-03
            state["queue"].append({"seat": seat, "kind": "retailer_bonus", "region": rid})


def reachable(state: State, seat: str) -> list[str]:
    """Regions where ``seat`` may place Progress markers now (SI-LOG-02, -05, -06):
    linked to a region with its Office, and ``can_found_office`` (read once here)."""
    regions = state["regions"]
    mine = set()
    used = len(state["players"][seat]["techs"])  # offices_used
    for r, reg in regions.items():
        n = reg["offices"].count(seat)
        if n:
            mine.add(r)
            used += n
    if used >= state["office_markers"]:
        return []  # no Office markers left
    return [
        r
        for r, reg in regions.items()
        if r not in mine
        and not mine.isdisjoint(REGIONS[r]["links"])
        and len(reg["offices"]) < region_capacity(state, r)
    ]


def needed(state: State, seat: str, rid: str) -> int:
    return REGIONS[rid]["cost"] - state["players"][seat]["logistics"].get(rid, 0)


def left(state: State, seat: str) -> int:
    """Logistics markers ``seat`` still has to place this turn."""
    turn = state["turn"]
    if turn is not None and turn.get("left") is not None:
        return markers_left(state, 0)
    return markers_left(state, markers(state, seat))


def ceo_movable(state: State, seat: str) -> bool:
    """SU-TEC-01: with CEOs in play, a company may spend a marker to move its CEO."""
    return state.get("ceo") is not None and not is_steve(state, seat)


def prompt(state: State, seat: str) -> dict[str, Any] | None:
    n = left(state, seat)
    options = reachable(state, seat)
    ceo = ceo_movable(state, seat)
    if n == 0 or not (options or ceo):
        return None
    p: dict[str, Any] = {"type": "logistics", "markers": n, "needed": {r: needed(state, seat, r) for r in options}}
    if ceo:
        p["ceo"] = state["ceo"][seat]  # where the CEO is; "ceo": region in the action moves it (1 marker)
    return p


def act(state: State, seat: str, action: dict[str, Any]) -> bool:
    """Place markers region by region, in the order given; an Office founded on the way
    extends the reach of the markers placed after it. The turn goes on while markers
    and reachable regions remain; an empty placement ends it, and the markers not
    placed are lost (SI-LOG-03). Returns whether the turn is over."""
    place = action.get("place")
    require(isinstance(place, list), "place must be a list of [region, markers] pairs")
    total = left(state, seat)
    spent = 0
    p = state["players"][seat]
    moved = action.get("ceo") is not None
    if moved:  # SU-TEC-01: 1 Progress marker moves the CEO to any region
        require(ceo_movable(state, seat), "there are no CEOs in this game")
        require(total >= 1, "moving your CEO takes 1 Logistics Progress marker")
        new_technologies.move_ceo(state, seat, action.get("ceo"))
        spent = 1
    for item in place:
        require(isinstance(item, list | tuple) and len(item) == 2, "each placement is [region, markers]")
        rid = region_id(item[0], state)
        n = as_int(item[1], f"markers in {item[0]}", 1)
        label = REGIONS[rid]["name"]
        why = can_found_office(state, seat, rid)
        require(why is None, f"cannot expand into {label}: {why}")
        require(linked_to_office(state, seat, rid), f"{label} is not linked to a region where you have an Office")
        need = needed(state, seat, rid)
        require(n <= need, f"{label} needs only {need} more Progress marker{'' if need == 1 else 's'}")
        spent += n
        require(spent <= total, f"you have only {total} Logistics Progress marker{'' if total == 1 else 's'}")
        p["logistics"][rid] = p["logistics"].get(rid, 0) + n
        if p["logistics"][rid] >= REGIONS[rid]["cost"]:
            found_office(state, seat, rid)
        else:
            say(state, f"{seat} places {n} Progress marker(s) towards {label} ({p['logistics'][rid]}/{REGIONS[rid]['cost']}).")
    return end_of_step(
        state,
        seat,
        total,
        spent,
        bool(place) or moved,
        lambda: bool(reachable(state, seat)) or ceo_movable(state, seat),
        "unused Logistics marker(s)",
    )


# --- Wi-Fi (SI-TECH-05) and the second-Office Retailer bonus (SI-RET-08) -------------


def second_office_choices(state: State, seat: str) -> list[str]:
    """Regions where ``seat`` has exactly one Office, no Retailer, and an empty space."""
    return [
        r
        for r, reg in state["regions"].items()
        if reg["retailer"] is None
        and reg["offices"].count(seat) == 1
        and len(reg["offices"]) < region_capacity(state, r)
    ]


def add_second_office(state: State, seat: str, rid: str, source: str) -> None:
    require(rid in second_office_choices(state, seat), f"you cannot add a second Office in {REGIONS[rid]['name']}")
    state["regions"][rid]["offices"].append(seat)
    say(state, f"{seat} adds a second Office in {REGIONS[rid]['name']} ({source}).")


def wifi_prompt(state: State, seat: str) -> dict[str, Any] | None:
    if not has_effect(state, seat, "second_office"):
        return None
    choices = second_office_choices(state, seat)
    if not choices:
        return None
    return {"type": "wifi", "regions": choices}


def wifi_act(state: State, seat: str, action: dict[str, Any]) -> None:
    rid = action.get("region")
    if rid is None:
        say(state, f"{seat} adds no Wi-Fi Office.")
        return
    add_second_office(state, seat, region_id(rid, state), "Wi-Fi")


# --- NFC (SI-TECH-09) ---------------------------------------------------------------


def nfc_prompt(state: State, seat: str) -> dict[str, Any] | None:
    p = state["players"][seat]
    if not has_effect(state, seat, "sell_3") or p["goods"] == 0:
        return None
    return {"type": "nfc", "max": min(3, p["goods"]), "price": p["price"]}


def nfc_act(state: State, seat: str, action: dict[str, Any]) -> None:
    p = state["players"][seat]
    n = as_int(action.get("sell"), "sell", 0, min(3, p["goods"]))
    if n:
        p["goods"] -= n
        p["supply"] += n
        p["vp"] += n * p["price"]
        p["nfc_sold"] += n
        say(state, f"{seat} sells {n} Goods through NFC at {p['price']}: +{n * p['price']} VP.")
