"""Decisions on the board: what each of a seat's legal actions means as gestures on the
drawn board and the seat's own area, for the page (``static/decide.js``).

The game's table module (``bot/games/<game>/table.py``) says, per legal action, its
``moves(prompt, view, seat, action)``: a list of gestures, each ``[id]`` (tap the place
carrying that engine id) or ``[source, target]`` (drag the source onto the target, or
tap one then the other), or None where the action names no place drawn (it is then
listed as a button). Its ``group(prompt, view, seat, action)`` may put such listed
actions under a heading and tell them apart: ``[heading, label]``, or ``[]`` for an
action that is the same choice for the player as one listed already (not listed again). The page never
invents a move: it offers only gestures some legal action has, and an action is sent
only once the gestures made are exactly that action's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games import table_parts


def _move(m: Any) -> list[str] | None:
    if isinstance(m, (list, tuple)) and 1 <= len(m) <= 2 and all(isinstance(x, str) and x for x in m):
        return [str(x) for x in m]
    return None


def board_decisions(
    game: str, prompt: Mapping[str, Any] | None, view: Mapping[str, Any], seat: str, actions: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """``{"moves": {n: [[id] | [source, target], …]}, "groups": {n: [heading, label]}}``
    for the numbered ``actions`` (``{"n", "label", "action"}``) of ``seat``."""
    hooks, _script = table_parts(game)
    moves_of = getattr(hooks, "moves", None)
    group_of = getattr(hooks, "group", None)
    moves: dict[str, list[list[str]]] = {}
    groups: dict[str, list[str]] = {}
    for a in actions:
        n, action = str(a["n"]), a["action"]
        got = moves_of(prompt, view, seat, action) if moves_of is not None else None
        if got:
            each = [_move(m) for m in got]
            if all(m is not None for m in each):
                moves[n] = [m for m in each if m is not None]
                continue
        g = group_of(prompt, view, seat, action) if group_of is not None else None
        if isinstance(g, (list, tuple)) and (not g or (len(g) == 2 and all(isinstance(x, str) for x in g))):
            groups[n] = [str(x) for x in g]
    return {"moves": moves, "groups": groups}
