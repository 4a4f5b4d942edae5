"""The Events (MM-SET-02, MM-PREP-04, MM-PREP-06, MM-PROD-01, E1-E15): the Event acting
this round, and the Customer and Goods icons of every revealed Event (they stay visible
and count every round). Revealing one each Preparation is ``preparation.reveal_event``."""

from __future__ import annotations

from typing import Any

from engine.mobile_markets.common import State
from engine.mobile_markets.data import EVENTS

Effect = dict[str, Any]


def current_event(state: State) -> str | None:
    revealed = state["events"]["revealed"]
    return revealed[-1] if revealed else None


def event_effects(state: State, at: str, do: str) -> list[Effect]:
    """Effects of this round's Event (they act for every company)."""
    ev = current_event(state)
    if ev is None:
        return []
    return [e for e in EVENTS[ev]["effects"] if e["at"] == at and e["do"] == do]


def event_value(state: State, at: str, do: str, default: int = 0) -> int:
    found = event_effects(state, at, do)
    return found[-1]["n"] if found else default


def display_event(state: State, at: str, do: str, display: str, default: int) -> int:
    """This round's Event's number for one display (E1/E2: its size, its card limit)."""
    for e in event_effects(state, at, do):
        if e["display"] == display:
            return int(e["n"])
    return default


def goods_icons(state: State) -> int:
    """Goods icons on every revealed Event card."""
    return sum(EVENTS[e]["goods"] for e in state["events"]["revealed"])


def customer_icons(state: State) -> dict[str, int]:
    """Customer icons per type on every revealed Event card."""
    out = {"variety": 0, "regular": 0, "complex": 0}
    for e in state["events"]["revealed"]:
        for kind, n in EVENTS[e]["customers"].items():
            out[kind] += n
    return out
