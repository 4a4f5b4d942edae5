"""Age of Automaton at the live table (:mod:`bot.table`): what each legal action means
as gestures on the board (:mod:`bot.table.decide`). A main action is a tap on one of
your automatons (``worker-<level>`` on your own area, render.age_of_automaton.player)
and then on its place on the board: a Prospect track, a card of a row; a Sponsorship
tile, a Specialist of your hand, a Contract are a tap on the card itself. The label
(the engine's words, as in Discord) says the cost and gain before it is sent."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def moves(prompt: Mapping[str, Any] | None, view: Mapping[str, Any], seat: str, action: Any) -> list[list[str]] | None:
    if not isinstance(action, Mapping):
        return None
    kind = action.get("type")
    if kind == "main":
        worker = action.get("worker")
        place = action.get("track") or action.get("card")
        if isinstance(worker, int) and isinstance(place, str):
            return [[f"worker-{worker}", place]]
        if isinstance(action.get("tile"), str):
            return [[action["tile"]]]
        return None
    if kind in ("draft", "play_specialist", "discard_specialist", "contract") and isinstance(action.get("card"), str):
        return [[action["card"]]]
    return None
