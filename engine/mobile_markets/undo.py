"""Which moves may be taken back (BGA's undo, DESIGN.md "Undo"): a move that drew from a
face-down deck or used chance may not, nor one that revealed the sealed plans or
products.

What Mobile Markets keeps hidden (the rulebook, 001): the order of every face-down deck
(the Technology, Feature and Marketing decks of the displays, refilled from the deck
when a card is bought; the three customer decks a Private Customer or a new customer is
drawn from; the Event deck; Steve Jr.'s deck), a reshuffle of a discard pile (chance),
and the secret plans and products until all are in (MM-PLAN-01)."""

from __future__ import annotations

from typing import Any

State = dict[str, Any]


def _hidden(state: State) -> list[Any]:
    """Everything whose change means something hidden was seen or chance was used."""
    out: list[Any] = [state.get("rng")]
    for d in sorted(state.get("displays") or {}):
        out.append(state["displays"][d].get("deck"))
    for kind in sorted(state.get("customers") or {}):
        pile = state["customers"][kind]
        out.append(pile.get("deck") if isinstance(pile, dict) else pile)
    out.append((state.get("events") or {}).get("deck"))
    out.append((state.get("steve") or {}).get("deck"))
    return out


def undoable(before: State, after: State, seat: str) -> bool:
    """Whether ``seat``'s move that turned ``before`` into ``after`` may be taken back."""
    if seat not in before.get("players", {}) or after.get("phase") == "over":
        return False
    if before.get("phase") != after.get("phase") or before.get("round") != after.get("round"):
        return False  # a phase ended: the plans or products were revealed, the next phase drew
    return _hidden(before) == _hidden(after)
