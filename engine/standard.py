"""What every game's state record answers the same way (the three engines keep their
state alike: ``log`` holds the last action's lines, ``phase`` is ``"over"`` at the end,
``result`` is filled in then). A game class inherits these and defines the rest of
the protocol (engine/__init__.py)."""

from __future__ import annotations

from typing import Any

from engine.errors import IllegalAction
from engine.jsonstate import clone, dumps

State = dict[str, Any]


class StateRecord:
    def events(self, state: State) -> list[str]:
        return list(state["log"])

    def is_over(self, state: State) -> bool:
        return state["phase"] == "over"

    def result(self, state: State) -> dict[str, Any]:
        if state["result"] is None:
            raise IllegalAction("the game is not over yet")
        return clone(state["result"])

    def dump(self, state: State) -> str:
        return dumps(state)
