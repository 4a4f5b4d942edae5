"""Which moves may be taken back (BGA's undo, DESIGN.md "Undo"): a move that used chance
or showed something hidden may not.

What Age of Automaton keeps hidden or leaves to chance (the rulebook, 004): every roll
of a die (the Level dice of a worker, the resource dice of Purchasing and the Market,
the Audit die: the random generator), the order of the face-down decks (Equipment, R&D
and Sale Order, drawn from to refill a row "immediately"; the Sponsorship tiles; the
Blocked Actions cards), a reshuffle of a discard pile, and the Specialist cards in a
hand (playing or discarding one shows it; the draft passes hands on)."""

from __future__ import annotations

from typing import Any

State = dict[str, Any]


def _hidden(state: State) -> list[Any]:
    out: list[Any] = [state.get("rng"), state.get("decks")]
    out.append((state.get("sponsorship") or {}).get("deck"))
    out.append((state.get("sponsorship") or {}).get("late"))
    out.append((state.get("blocked") or {}).get("deck"))
    draft = state.get("draft") or {}
    out.append([draft.get("pass"), draft.get("hands")])
    for seat in sorted(state.get("players") or {}):
        out.append(state["players"][seat].get("hand"))
    return out


def undoable(before: State, after: State, seat: str) -> bool:
    """Whether ``seat``'s move that turned ``before`` into ``after`` may be taken back."""
    if seat not in before.get("players", {}) or after.get("phase") == "over":
        return False
    if before.get("phase") != after.get("phase") or before.get("round") != after.get("round"):
        return False  # a phase ended (its automatic steps drew or rolled)
    return _hidden(before) == _hidden(after)
