"""Free actions: play a Specialist, use one (once per round), discard one, place a Contract
on a Common Specialist; and using Equipment abilities of a marked column (AA-FREE-01..05,
AA-EQP-04)."""

from __future__ import annotations

from typing import Any

from engine.age_of_automaton import effects, special
from engine.age_of_automaton.common import State, fmt_res, gain_res, has_res, say
from engine.age_of_automaton.data import EQUIPMENT, SPECIALISTS
from engine.errors import IllegalAction


def play_specialist(state: State, seat: str, card: Any) -> None:
    p = state["players"][seat]
    if card not in p["hand"]:
        raise IllegalAction("that Specialist is not in your hand")
    need = SPECIALISTS[card]["requirement"]
    if not has_res(p, need):
        raise IllegalAction(f"you need to hold {fmt_res(need)} to play {SPECIALISTS[card]['name']}")
    p["hand"].remove(card)
    p["played"].append(card)
    say(state, f"{seat} plays the Specialist {SPECIALISTS[card]['name']} (holding {fmt_res(need)}, not paid).")


def use_specialist(state: State, seat: str, card: Any) -> None:
    p = state["players"][seat]
    if card not in p["played"]:
        raise IllegalAction("that Specialist is not among your played Specialists")
    if card in p["rotated"]:
        raise IllegalAction("that Specialist was already used this round")
    p["rotated"].append(card)
    info = SPECIALISTS[card]
    say(state, f"{seat} uses {info['name']}: {effects.describe(info['ability'])}.")
    effects.queue(state, seat, info["ability"], why=info["name"], front=True)


def discard_specialist(state: State, seat: str, action: dict[str, Any]) -> None:
    p = state["players"][seat]
    card = action.get("card")
    if card not in p["hand"]:
        raise IllegalAction("that Specialist is not in your hand")
    sp = action.get("special")
    if not (sp is None or (isinstance(sp, str) and sp in ("overtime", "overbuilt", "overclock"))):
        raise IllegalAction("a discarded Specialist gives Overtime, Overbuilt or Overclock (not Overdrive)")
    info = SPECIALISTS[card]
    p["hand"].remove(card)
    variant = state["options"].get("limited_common_specialists")
    if variant and p["discarded"] >= 1:
        state["removed"].append(card)
        where = "out of the game (only a first discarded Specialist joins the Common area)"
    else:
        state["commons"].append(card)
        state["contracts_on"][card] = []
        where = "to the Common Specialists"
    p["discarded"] += 1
    say(state, f"{seat} discards {info['name']} {where}.")
    if sp is not None:
        special.play(state, seat, action, free=True)
    gain_res(state, seat, dict(info["discard"]), info["name"])


def contract(state: State, seat: str, card: Any) -> None:
    p = state["players"][seat]
    if card not in state["commons"]:
        raise IllegalAction("choose a Common Specialist")
    if p["contracts"] <= 0:
        raise IllegalAction("you have no Contract token left")
    if seat in state["contracts_on"][card]:
        raise IllegalAction("you already placed a Contract on that Specialist this round")
    p["contracts"] -= 1
    state["contracts_on"][card].append(seat)
    info = SPECIALISTS[card]
    say(state, f"{seat} places a Contract on {info['name']}: {effects.describe(info['ability'])}.")
    effects.queue(state, seat, info["ability"], why=info["name"], front=True)


def usable_equipment(state: State, seat: str) -> list[str]:
    """Cards under a column where this turn's main action put a marker, not used yet."""
    turn = state["turn"]
    if not turn or turn["seat"] != seat:
        return []
    p = state["players"][seat]
    return [
        e["id"]
        for e in p["equipment"]
        if e["column"] is not None and e["column"] in turn["columns"] and e["id"] not in turn["used"]
    ]


def column_equipment(state: State, seat: str, column: int) -> list[str]:
    """Equipment under ``column`` not used this turn (usable before resolving a main action
    of that column, once its marker is placed)."""
    turn = state["turn"]
    p = state["players"][seat]
    return [e["id"] for e in p["equipment"] if e["column"] == column and e["id"] not in turn["used"]]


def use_equipment(state: State, seat: str, card: Any) -> None:
    if card not in usable_equipment(state, seat):
        raise IllegalAction("an Equipment ability is used in the turn you place an Action marker in its column, once")
    state["turn"]["used"].append(card)
    info = EQUIPMENT[card]
    say(state, f"{seat} uses {info['name']}: {effects.describe(info['ability'])}.")
    effects.queue(state, seat, info["ability"], why=info["name"], front=True)

