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
    """A game class gives ``_apply(state, seat, action, on_phase)`` (the new state;
    ``on_phase(state)`` called at the end of every phase the action completes, automatic
    phases included, or None) and ``view``; these three read it."""

    def _apply(self, state: State, seat: str, action: dict[str, Any], on_phase: Any) -> State:
        raise NotImplementedError

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        raise NotImplementedError

    def apply(self, state: State, seat: str, action: dict[str, Any]) -> State:
        return self._apply(state, seat, action, None)

    def trace(self, state: State, seat: str, action: dict[str, Any]) -> list[dict[str, Any]]:
        """The public views at the end of every phase that ``action`` completes (the
        automatic phases included), for the pictures posted after each phase."""
        return self.apply_traced(state, seat, action)[1]

    def apply_traced(self, state: State, seat: str, action: dict[str, Any]) -> tuple[State, list[dict[str, Any]]]:
        """``apply`` and ``trace`` in one pass: (the new state, the phase views). The app
        applies a move once and has its pictures' views with it."""
        views: list[dict[str, Any]] = []
        new = self._apply(state, seat, action, lambda s: views.append(self.view(s, None)))
        return new, views

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


def hidden_action(action: dict[str, Any]) -> dict[str, Any]:
    """A logged action as shown while what it carries is secret: its kind only."""
    kind = action.get("type")
    return {"type": kind, "hidden": True} if isinstance(kind, str) else {"hidden": True}


def sealed_until_reveal(
    game: Any, before: State, seat: str, action: dict[str, Any], now: State, viewer: str | None
) -> dict[str, Any]:
    """The common rule for a secret simultaneous decision (a sealed plan): the action that
    answered a ``"secret"`` prompt is hidden from everyone but its seat while the game is
    still at the stage (round, phase) it was made in; the reveal ends that stage. After
    the game is over everything may be shown."""
    if viewer == seat or game.is_over(now):
        return action
    prompt = game.pending(before).get(seat)
    if prompt is None or not prompt.get("secret"):
        return action
    if (before.get("round"), before.get("phase")) == (now.get("round"), now.get("phase")):
        return hidden_action(action)
    return action
