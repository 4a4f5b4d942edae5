"""Specialist draft: keep 1 and pass 3, keep 1 and pass 2, keep 1 and pass 1, then take
the last card received; secret and simultaneous (AA-SET-10)."""

from __future__ import annotations

from typing import Any

from engine.age_of_automaton.common import State, say
from engine.age_of_automaton.data import SPECIALISTS
from engine.errors import IllegalAction


def waiting(state: State) -> list[str]:
    return [s for s in state["seats"] if state["draft"]["picks"][s] is None]


def prompt(state: State, seat: str) -> dict[str, Any]:
    d = state["draft"]
    return {
        "type": "draft",
        "secret": True,
        "hand": list(d["hands"][seat]),
        "kept": list(d["kept"][seat]),
        "pass": d["pass"],
        "text": f"Draft pass {d['pass']} of 3: {_keep_and_pass(len(d['hands'][seat]))}",
    }


def _keep_and_pass(in_hand: int) -> str:
    """"keep one Specialist and pass the other 3 (the other one) to the player on your left"."""
    others = in_hand - 1
    if others <= 0:
        return "keep your last Specialist."
    rest = "the other one" if others == 1 else f"the other {others}"
    return f"keep one Specialist and pass {rest} to the player on your left."


def pick(state: State, seat: str, action: dict[str, Any]) -> None:
    d = state["draft"]
    card = action.get("card")
    if d["picks"][seat] is not None:
        raise IllegalAction("you have already chosen for this pass")
    if card not in d["hands"][seat]:
        raise IllegalAction("choose one of the Specialists in your draft hand")
    d["picks"][seat] = card
    if waiting(state):
        return
    seats = state["seats"]
    for s in seats:
        d["kept"][s].append(d["picks"][s])
        d["hands"][s].remove(d["picks"][s])
    # pass to the left (the next seat)
    d["hands"] = {seats[(i + 1) % len(seats)]: d["hands"][s] for i, s in enumerate(seats)}
    d["picks"] = {s: None for s in seats}
    d["pass"] += 1
    say(state, f"Everyone kept a Specialist (pass {d['pass'] - 1} of 3).")
    if d["pass"] > 3:
        for s in seats:
            state["players"][s]["hand"] = d["kept"][s] + d["hands"][s]
        state["draft"] = None
        say(state, "The draft is over: each player holds 4 Specialists.")
        state["phase"] = "start"


def card_name(card: str) -> str:
    return SPECIALISTS[card]["name"]
