"""Age of Automaton at the live table (:mod:`bot.table`): what each legal action means
as gestures on the board (:mod:`bot.table.decide`). A main action (and an extra one, or
a main action resolved later) is a tap on one of your automatons (``worker-<level>`` on
your own area, render.age_of_automaton.player) and then on its place on the board: a
Prospect track, a card of a row; a Sponsorship tile, an Achievement, a Specialist of
your hand, an Equipment card of yours, a Contract are a tap on the card itself; an
automaton upgraded is a tap on it; a main action with no automaton and no card
(Funding, Assembling, Purchasing) is a tap on it on your own board. The label (the engine's words, as in Discord) says
the cost and gain before it is sent. What names no place drawn (dice, resources, a
column, a special action, ending the turn) stays a button."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# the actions that are one card tapped: the card's id is drawn on the board or your area
CARD_TAPS = frozenset({
    "draft", "play_specialist", "discard_specialist", "use_specialist", "contract", "achievement", "equipment",
})
WORKER_PLACED = frozenset({"main", "extra", "resolve"})  # an automaton onto its place, or a tile


def moves(prompt: Mapping[str, Any] | None, view: Mapping[str, Any], seat: str, action: Any) -> list[list[str]] | None:
    if not isinstance(action, Mapping):
        return None
    kind = action.get("type")
    if kind in WORKER_PLACED:
        if action.get("before"):  # (Equipment used before the action: chosen from the list)
            return None
        worker = action.get("worker")
        place = action.get("track") or action.get("card")
        if isinstance(worker, int) and isinstance(place, str):
            return [[f"worker-{worker}", place]]
        if isinstance(action.get("tile"), str):
            return [[action["tile"]]]
        if kind == "main" and isinstance(action.get("action"), str) and set(action) == {"type", "action"}:
            return [[action["action"]]]  # (Funding, Assembling, Purchasing: the action on your board)
        return None
    if kind in CARD_TAPS and isinstance(action.get("card"), str):
        return [[action["card"]]]
    if kind == "upgrade" and isinstance(action.get("level"), int):
        return [[f"worker-{action['level']}"]]
    return None
