"""Sponsorship: take a tile (no refill), gain it, discard it, and take the topmost free
Next Turn Order space; the first player cannot take first again (AA-SPON-01)."""

from __future__ import annotations

from typing import Any

from engine.age_of_automaton import effects
from engine.age_of_automaton.actions import log_action
from engine.age_of_automaton.common import State, say
from engine.age_of_automaton.data import SPONSORSHIP
from engine.errors import IllegalAction


def spot(state: State, seat: str) -> int | None:
    first = 1 if state["order"][0] == seat else 0
    for i in range(first, len(state["next_order"])):
        if state["next_order"][i] is None:
            return i
    return None


def choices(state: State, seat: str, extra: bool) -> list[dict[str, Any]]:
    if spot(state, seat) is None or seat in state["next_order"]:
        return []
    return [{"tile": t} for t in state["sponsorship"]["row"]]


def resolve(state: State, seat: str, params: dict[str, Any], extra: bool) -> None:
    tile = params.get("tile")
    row = state["sponsorship"]["row"]
    if tile not in row:
        raise IllegalAction("choose a Sponsorship tile from the row")
    i = spot(state, seat)
    if i is None:
        raise IllegalAction("no Next Turn Order space is free for you")
    gain = effects.describe(SPONSORSHIP[tile]["gain"])
    if int(state.get("rules", 1)) >= 4:  # (rules 1-3 games keep their log's words)
        log_action(state, seat, f"Sponsorship and takes a tile ({gain})")
    else:
        log_action(state, seat, f"Sponsorship and takes the tile giving {gain}")
    row.remove(tile)
    state["sponsorship"]["discard"].append(tile)
    state["next_order"][i] = seat
    say(state, f"{seat} takes space {i + 1} of the Next Turn Order track.")
    effects.queue(state, seat, list(SPONSORSHIP[tile]["gain"]), why="Sponsorship", front=True)
