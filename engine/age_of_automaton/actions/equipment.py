"""Equipment: take a card the worker's level reaches, pay it less your discounts, play its
extra action at once, tuck it under a column (AA-EQP-01..05)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.age_of_automaton import effects
from engine.age_of_automaton.actions import (
    affordable,
    card_choices,
    discounted,
    reached_card,
    take_card,
)
from engine.age_of_automaton.common import State, fmt_res, pay_res, say
from engine.age_of_automaton.data import ACTION_NAMES, EQUIPMENT
from engine.errors import IllegalAction

PER_COLUMN = 2

# the action dispatch of engine.age_of_automaton.flow, which registers the extra action's
# step and ask below with its own ``action_choices`` and ``resolve_action`` passed in
Choices = Callable[..., list[dict[str, Any]]]
Resolve = Callable[[State, str, str, dict[str, Any], bool], None]


def free_columns(p: dict[str, Any]) -> list[int]:
    used = [e["column"] for e in p["equipment"]]
    return [c for c in range(4) if used.count(c) < PER_COLUMN]


def _room(p: dict[str, Any]) -> bool:
    placed = sum(1 for e in p["equipment"] if e["column"] is not None)
    pending = sum(1 for e in p["equipment"] if e["column"] is None)
    return placed + pending < 4 * PER_COLUMN


def choices(state: State, seat: str, extra: bool) -> list[dict[str, Any]]:
    p = state["players"][seat]
    if not _room(p):
        return []
    return card_choices(state, seat, "equipment", extra, lambda c: affordable(p, discounted(p, EQUIPMENT[c]["cost"])))


def resolve(state: State, seat: str, params: dict[str, Any], extra: bool) -> None:
    p = state["players"][seat]
    level, card = reached_card(state, "equipment", params)
    if not _room(p):
        raise IllegalAction("your four columns already hold two Equipment cards each")
    cost = discounted(p, EQUIPMENT[card]["cost"])
    if not affordable(p, cost):
        raise IllegalAction(f"{EQUIPMENT[card]['name']} costs you {fmt_res(cost)}")
    take_card(state, seat, "equipment", level, extra, card, EQUIPMENT[card]["name"])
    pay_res(state, seat, cost, EQUIPMENT[card]["name"])
    p["equipment"].append({"id": card, "column": None})  # its discount counts at once
    steps: list[dict[str, Any]] = []
    if not state["turn"].get("nested"):
        steps.append({"step": "equipment_extra", "card": card})
    steps.append({"step": "equipment_column", "card": card})
    steps.append({"vp": level, "why": "Equipment bonus"})
    effects.queue(state, seat, steps, front=True)


def extra_step(state: State, seat: str, atom: dict[str, Any], *, action_choices: Choices) -> None:
    """The card's extra action: asked for if it can be played, else lost (``action_choices``
    is ``flow.action_choices``)."""
    card = atom["card"]
    kind = EQUIPMENT[card]["extra"]
    options = action_choices(state, seat, kind, extra=True)
    if not options:
        say(state, f"{seat} cannot play the extra {ACTION_NAMES[kind]} action of {EQUIPMENT[card]['name']}; it is lost.")
        return
    effects.ask(state, seat, "extra", action=kind, card=card)


def _column_step(state: State, seat: str, atom: dict[str, Any]) -> None:
    p = state["players"][seat]
    cols = free_columns(p)
    if len(cols) == 1:
        _place(state, seat, atom["card"], cols[0])
    else:
        effects.ask(state, seat, "column", card=atom["card"], columns=cols)


def _place(state: State, seat: str, card: str, column: int) -> None:
    p = state["players"][seat]
    for e in p["equipment"]:
        if e["id"] == card:
            e["column"] = column
    say(state, f"{seat} tucks {EQUIPMENT[card]['name']} under column {column + 1}.")


def answer_column(state: State, seat: str, a: dict[str, Any], action: dict[str, Any]) -> None:
    col = action.get("column")
    if not isinstance(col, int) or isinstance(col, bool) or col not in a["columns"]:
        raise IllegalAction("choose a column with fewer than two Equipment cards (1-4)")
    state["asks"].pop(0)
    _place(state, seat, a["card"], col)


def answer_extra(
    state: State, seat: str, a: dict[str, Any], action: dict[str, Any], *, resolve_action: Resolve
) -> None:
    """The extra action played, or given up (``resolve_action`` is ``flow.resolve_action``)."""
    if action.get("skip"):
        state["asks"].pop(0)
        say(state, f"{seat} gives up the extra action.")
        return
    params = {k: v for k, v in action.items() if k != "type"}
    state["asks"].pop(0)
    state["turn"]["nested"] = a["action"] == "equipment"
    try:
        resolve_action(state, seat, a["action"], params, extra=True)
    finally:
        state["turn"]["nested"] = False


effects.STEPS["equipment_column"] = _column_step
effects.ASKS["column"] = answer_column
